#include "charts/BoxPlotChart.h"

#include "charts/ScalingChart.h"

#include <QCategoryAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <algorithm>

namespace scalelab::ui {

BoxPlotChart::BoxPlotChart() { legend()->setAlignment(Qt::AlignBottom); }

void BoxPlotChart::setData(const BoxPlotData& data) {
    removeAllSeries();
    for (QAbstractAxis* a : axes()) {
        removeAxis(a);
        delete a;
    }
    boxes_ = 0;
    xLabels_.clear();
    setTitle(data.clientCounts.isEmpty() ? tr("No counted run has a %1 latency").arg(data.percentile)
                                         : tr("%1 latency of each round, by %2")
                                               .arg(data.percentile, tr(pointAxisWords(data.axis))));
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    for (int i = 0; i < data.clientCounts.size(); ++i) {
        QString label = QString::number(data.clientCounts[i]);
        x->append(label, i);
        xLabels_ << label;
    }
    x->setRange(-0.5, std::max<double>(0.5, data.clientCounts.size() - 0.5));
    x->setTitleText(QString::fromLatin1(pointAxisTitle(data.axis)));
    addAxis(x, Qt::AlignBottom);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%g"));
    y->setTitleText(tr("%1 latency (ms)").arg(data.percentile));
    double lo = 0, hi = 0;
    bool any = false;
    for (const auto& s : data.series)
        for (const auto& b : s.boxes) {
            lo = any ? std::min(lo, b.box.min) : b.box.min;
            hi = any ? std::max(hi, b.box.max) : b.box.max;
            any = true;
        }
    if (any) {
        double pad = std::max((hi - lo) * 0.08, hi * 0.02);
        y->setRange(std::max(0.0, lo - pad), hi + pad);
        y->applyNiceNumbers();
    }
    addAxis(y, Qt::AlignLeft);
    auto add = [&](QLineSeries* s) {
        addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    };
    const int m = static_cast<int>(data.series.size());
    const double slot = 0.8 / std::max(1, m), half = slot * 0.35;
    for (int i = 0; i < m; ++i) {
        const BoxPlotSeries& s = data.series[i];
        QColor colour = seriesColor(s.colorIndex);
        bool named = false;
        for (const auto& b : s.boxes) {
            int at = static_cast<int>(data.clientCounts.indexOf(b.clients));
            double cx = at + (i - (m - 1) / 2.0) * slot;
            // One path: the lower whisker up, round the box, the upper whisker and back.
            auto* outline = new QLineSeries;
            outline->setPen(QPen(colour, 1.5));
            const BoxSummary& v = b.box;
            for (QPointF p : {QPointF(cx, v.min), QPointF(cx, v.q1), QPointF(cx - half, v.q1), QPointF(cx - half, v.q3),
                              QPointF(cx, v.q3), QPointF(cx, v.max), QPointF(cx, v.q3), QPointF(cx + half, v.q3),
                              QPointF(cx + half, v.q1), QPointF(cx, v.q1)})
                outline->append(p);
            add(outline);
            legend()->markers(outline).first()->setVisible(false);
            auto* median = new QLineSeries;
            median->setPen(QPen(colour, 3.5));
            median->append(cx - half, v.median);
            median->append(cx + half, v.median);
            add(median);
            if (!named) {
                median->setName(s.label.toHtmlEscaped());  // legend names are rich text: escaped
                named = true;
            } else {
                legend()->markers(median).first()->setVisible(false);
            }
            ++boxes_;
        }
    }
}

} // namespace scalelab::ui
