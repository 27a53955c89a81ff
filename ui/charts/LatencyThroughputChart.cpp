#include "charts/LatencyThroughputChart.h"

#include "charts/PointLabelItem.h"
#include "charts/ScalingChart.h"

#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace scalelab::ui {

LatencyThroughputChart::LatencyThroughputChart() {
    legend()->setAlignment(Qt::AlignBottom);
    setMargins(QMargins(4, 4, 24, 4));
}

QStringList LatencyThroughputChart::pointLabels() const {
    QStringList out;
    for (auto* l : labels_) out << l->texts();
    return out;
}

void LatencyThroughputChart::setData(const LatencyThroughputData& data, bool logY) {
    qDeleteAll(labels_);
    labels_.clear();
    knees_ = skips_ = 0;
    removeAllSeries();
    for (QAbstractAxis* a : axes()) {
        removeAxis(a);
        delete a;
    }
    setTitle(data.curves.isEmpty() ? tr("No counted run has a tps and a %1").arg(data.yLabel)
                                   : tr("%1 against achieved tps, points labelled with their %2")
                                         .arg(data.yLabel, data.axis == PointAxis::Rate
                                                                   ? tr("offered rate")
                                                                   : QString::fromStdString(pointNoun(data.axis, false))));
    double maxX = 0, minY = 0, maxY = 0;
    for (const auto& c : data.curves)
        for (const auto& p : c.points) {
            maxX = std::max(maxX, p.tps);
            maxY = std::max(maxY, p.value);
            if (p.value > 0) minY = minY == 0 ? p.value : std::min(minY, p.value);
        }
    auto* x = new QValueAxis;
    x->setLabelFormat(QStringLiteral("%g"));
    x->setTitleText(tr("achieved tps"));
    x->setRange(0, maxX > 0 ? maxX * 1.08 : 1);
    x->applyNiceNumbers();
    addAxis(x, Qt::AlignBottom);
    QAbstractAxis* y;
    if (logY && minY > 0) {
        auto* ly = new QLogValueAxis;
        ly->setBase(10);
        ly->setLabelFormat(QStringLiteral("%g"));
        ly->setRange(std::pow(10, std::floor(std::log10(minY))), std::pow(10, std::ceil(std::log10(maxY))));
        y = ly;
    } else {
        auto* vy = new QValueAxis;
        vy->setLabelFormat(QStringLiteral("%g"));
        vy->setRange(0, maxY > 0 ? maxY * 1.1 : 1);
        vy->applyNiceNumbers();
        y = vy;
    }
    y->setTitleText(tr("%1 (%2)").arg(data.yLabel, data.yUnit));
    addAxis(y, Qt::AlignLeft);
    auto add = [&](QXYSeries* s) {
        addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    QList<PointLabel> texts;  // every curve's, placed together
    QLineSeries* first = nullptr;
    for (const auto& c : data.curves) {
        QColor colour = seriesColor(c.colorIndex);
        auto* line = new QLineSeries;
        line->setName(c.label.toHtmlEscaped());  // legend names are rich text: escaped
        line->setPen(QPen(colour, 2));
        auto* dots = new QScatterSeries;
        dots->setColor(colour);
        dots->setBorderColor(colour);
        dots->setMarkerSize(8);
        // The knee: hollow squares, bigger, in the series' colour; -L skips: triangles.
        auto* knee = new QScatterSeries;
        knee->setName(tr("%1: below the offered rate").arg(c.label).toHtmlEscaped());
        knee->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        knee->setMarkerSize(14);
        knee->setBrush(Qt::NoBrush);
        knee->setPen(QPen(colour, 2));
        auto* skip = new QScatterSeries;
        skip->setName(tr("%1: -L skipped transactions").arg(c.label).toHtmlEscaped());
        skip->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
        skip->setMarkerSize(12);
        skip->setColor(colour);
        for (const auto& p : c.points) {
            QPointF at(p.tps, p.value);
            if (logY && p.value <= 0) continue;  // no place for 0 on a log axis
            line->append(at);
            dots->append(at);
            if (p.belowRate) knee->append(at), ++knees_;
            if (p.skipping) skip->append(at), ++skips_;
            texts.append({at, QString::number(p.at), colour});
        }
        add(line);
        add(dots);
        legend()->markers(dots).first()->setVisible(false);  // the series' entry is its line
        for (auto* marks : {knee, skip}) {
            if (marks->count() == 0) {
                delete marks;
                continue;
            }
            add(marks);
        }
        if (!first) first = line;
    }
    if (first) labels_.append(new PointLabelItem(this, first, texts));
}

} // namespace scalelab::ui
