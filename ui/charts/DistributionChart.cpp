#include "charts/DistributionChart.h"

#include "charts/ScalingChart.h"

#include <QCategoryAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>

#include <algorithm>
#include <cmath>

namespace scalelab::ui {

DistributionChart::DistributionChart() {
    legend()->setAlignment(Qt::AlignBottom);
    setMargins(QMargins(4, 4, 24, 4));  // room for the last percentile label
}

void DistributionChart::setData(const DistributionData& data) {
    removeAllSeries();
    for (QAbstractAxis* a : axes()) {
        removeAxis(a);
        delete a;
    }
    xLabels_.clear();
    setTitle(!data.clients ? tr("No run has a latency histogram")
                           : tr("Latency distribution at %1").arg(QString::fromStdString(pointText(data.axis, data.clients))));
    double maxX = 1, minY = 0, maxY = 0;
    auto extend = [&](const QList<QPointF>& curve) {
        for (const QPointF& p : curve) {
            maxX = std::max(maxX, p.x());
            if (p.y() <= 0) continue;  // a log axis has no place for 0
            minY = minY == 0 ? p.y() : std::min(minY, p.y());
            maxY = std::max(maxY, p.y());
        }
    };
    for (const auto& c : data.series) {
        extend(c.merged);
        for (const auto& r : c.rounds) extend(r);
    }
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    // The axis ends where the curves do (the count's last resolvable percentile); a label at the
    // very edge would be cut, so the last one is the last whole "nine" inside.
    int lastNine = std::max(1, static_cast<int>(std::floor(maxX + 1e-9)));
    for (int n = 0; n <= lastNine; ++n) {
        QString label = ninesLabel(n);
        x->append(label, n);
        xLabels_ << label;
    }
    x->setRange(0, std::max<double>(lastNine, maxX) + 0.05);
    x->setTitleText(tr("percentile"));
    addAxis(x, Qt::AlignBottom);
    auto* y = new QLogValueAxis;
    y->setBase(10);
    y->setLabelFormat(QStringLiteral("%g"));
    y->setTitleText(tr("latency (ms)"));
    if (maxY > 0) y->setRange(std::pow(10, std::floor(std::log10(minY))), std::pow(10, std::ceil(std::log10(maxY))));
    addAxis(y, Qt::AlignLeft);
    auto add = [&](QLineSeries* s) {
        addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    for (const auto& c : data.series) {
        QColor colour = seriesColor(c.colorIndex);
        for (const auto& round : c.rounds) {
            auto* s = new QLineSeries;
            QColor pale = colour;
            pale.setAlphaF(0.35);
            s->setPen(QPen(pale, 1));
            for (const QPointF& p : round)
                if (p.y() > 0) s->append(p);
            add(s);
            legend()->markers(s).first()->setVisible(false);  // the series' entry is its merged curve
        }
        auto* s = new QLineSeries;
        s->setName(c.label.toHtmlEscaped());  // legend names are rich text: escaped
        s->setPen(QPen(colour, 2.5));
        for (const QPointF& p : c.merged)
            if (p.y() > 0) s->append(p);
        add(s);
    }
}

} // namespace scalelab::ui
