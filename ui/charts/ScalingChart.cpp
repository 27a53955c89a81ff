#include "charts/ScalingChart.h"

#include "charts/ErrorBarItem.h"
#include "models/RatioAxis.h"

#include <QCategoryAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <optional>

namespace scalelab::ui {

QColor seriesColor(int index) {
    static const QColor palette[] = {QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
                                     QColor(0xD5, 0x5E, 0x00), QColor(0xCC, 0x79, 0xA7), QColor(0x56, 0xB4, 0xE9),
                                     QColor(0x8C, 0x56, 0x4B), QColor(0x55, 0x55, 0x55)};
    constexpr int n = sizeof palette / sizeof palette[0];
    return palette[((index % n) + n) % n];
}

ScalingChart::ScalingChart() {
    setAnimationOptions(QChart::NoAnimation);
    legend()->setAlignment(Qt::AlignBottom);
}

void ScalingChart::clearAll() {
    for (auto* b : bars_) delete b;
    bars_.clear();
    removeAllSeries();
    for (auto* a : axes()) {
        removeAxis(a);
        delete a;
    }
}

int ScalingChart::errorBarCount() const {
    int n = 0;
    for (auto* b : bars_) n += b->barCount();
    return n;
}

void ScalingChart::setData(const ScalingData& data, bool logX) {
    clearAll();
    setTitle(QStringLiteral("%1 by %2 \u2014 error bars: %3")
                 .arg(data.metric.toHtmlEscaped(),
                      QString::fromLatin1(pointAxisWords(data.axis)),
                      data.errorBars.toHtmlEscaped()));
    QAbstractAxis* x;
    if (logX) {
        auto* ax = new QLogValueAxis;
        ax->setBase(2);
        ax->setLabelFormat(QStringLiteral("%g"));
        x = ax;
    } else {
        auto* ax = new QValueAxis;
        ax->setLabelFormat(QStringLiteral("%g"));
        x = ax;
    }
    x->setTitleText(QString::fromLatin1(pointAxisTitle(data.axis)));
    // A ratio is drawn at log2 of its value on an axis labelled in ratios (issue 32.3): Qt's
    // log axis labels only powers of its base, too few between 0.7 and 1.4.
    std::optional<RatioAxis> ratio;
    if (data.ratioScale) ratio = ratioAxisFor(data);
    auto yOf = [&](double v) { return ratio ? ratio->position(v) : v; };
    QAbstractAxis* y;
    if (ratio) {
        auto* ay = new QCategoryAxis;
        ay->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        ay->setStartValue(-ratio->halfRange);
        for (const auto& t : ratio->ticks) ay->append(t.label, t.at);
        y = ay;
    } else {
        auto* ay = new QValueAxis;
        ay->setLabelFormat(QStringLiteral("%g"));
        y = ay;
    }
    // A ratio's pair is named by the legend ("B / A"): series names in the axis title made it
    // longer than the axis, and Qt cut it to "tps ratio (half the core...".
    y->setTitleText(ratio ? data.metric : QStringLiteral("%1 (%2)").arg(data.metric, data.unit));
    addAxis(x, Qt::AlignBottom);
    addAxis(y, Qt::AlignLeft);
    yLabels_.clear();
    if (ratio)
        for (const auto& t : ratio->ticks) yLabels_ << t.label;

    double maxX = 1, maxY = 0;
    for (const auto& s : data.series)
        for (const auto& p : s.points) maxX = std::max(maxX, p.clients), maxY = std::max(maxY, p.high);

    for (const auto& s : data.series) {
        auto* line = new QLineSeries;
        auto* dots = new QScatterSeries;
        // Qt Charts draws legend names as rich text: a label is the user's text, escaped, so
        // that `<img src=...>` shows as typed and never pulls a local file in (issue 31.3).
        line->setName(s.label.toHtmlEscaped());
        // Set, not taken from the theme: the theme hands out colours in the order series are
        // added, so a fit curve or a missing series would shift every colour after it.
        line->setColor(seriesColor(s.colorIndex));
        dots->setMarkerSize(8);
        QList<QPointF> pts;
        QList<ErrorBar> bars;
        for (const auto& p : s.points) {
            pts.append(QPointF(p.clients, yOf(p.mean)));
            ErrorBar bar{p.clients, yOf(p.low), yOf(p.high)};
            if (ratio) {
                // Beyond the axis: to the edge, as an arrow; the values are in the tooltip.
                bar.lowBeyond = bar.low < -ratio->halfRange, bar.highBeyond = bar.high > ratio->halfRange;
                bar.low = std::max(bar.low, -ratio->halfRange), bar.high = std::min(bar.high, ratio->halfRange);
            }
            bars.append(bar);
        }
        line->replace(pts);
        dots->replace(pts);
        addSeries(line);
        addSeries(dots);
        for (auto* series : {static_cast<QXYSeries*>(line), static_cast<QXYSeries*>(dots)}) {
            series->attachAxis(x);
            series->attachAxis(y);
        }
        QColor color = line->color();
        dots->setColor(color);
        dots->setBorderColor(color);
        legend()->markers(dots).first()->setVisible(false);
        QList<ScalingPointView> views = s.points;
        connect(dots, &QScatterSeries::hovered, this, [this, views](const QPointF& at, bool on) {
            for (const auto& v : views)
                if (v.clients == at.x()) emit pointHovered(v.tooltip, on);
        });
        bars_.append(new ErrorBarItem(this, dots, bars, color));
        if (!s.fit.isEmpty()) {
            auto* fit = new QLineSeries;
            fit->setName(s.label.toHtmlEscaped() + QStringLiteral(" USL fit"));
            QPen pen(color, 1.2, Qt::DashLine);
            fit->setPen(pen);
            fit->replace(s.fit);
            addSeries(fit);
            fit->attachAxis(x);
            fit->attachAxis(y);
            for (const auto& p : s.fit) maxY = std::max(maxY, p.y());
            if (s.peakClients && *s.peakClients <= maxX) {
                auto* peak = new QScatterSeries;
                peak->setName(s.label.toHtmlEscaped() + QStringLiteral(" N*"));
                peak->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
                peak->setColor(color);
                double n = *s.peakClients;
                auto best = std::min_element(s.fit.begin(), s.fit.end(), [n](const QPointF& a, const QPointF& b) {
                    return std::abs(a.x() - n) < std::abs(b.x() - n);
                });
                peak->append(*best);
                addSeries(peak);
                peak->attachAxis(x);
                peak->attachAxis(y);
            }
        }
    }
    if (data.referenceY) maxY = std::max(maxY, *data.referenceY);
    double top = ratio ? ratio->halfRange : maxY > 0 ? maxY * 1.1 : 1, bottom = ratio ? -ratio->halfRange : 0;
    if (ratio) {
        y->setRange(bottom, top);
    } else {
        auto* linear = static_cast<QValueAxis*>(y);
        linear->setRange(0, top);
        linear->applyNiceNumbers();
        top = linear->max();  // the machine markers reach the top of the plot
    }
    // Markers at the machine's cores and PUs: where scaling is expected to change.
    auto marker = [&](int at, const QString& name) {
        if (at <= 0 || at > maxX * 1.5) return;
        auto* m = new QLineSeries;
        m->setName(name);
        m->setPen(QPen(Qt::gray, 1, Qt::DotLine));
        m->append(at, bottom);
        m->append(at, top);
        addSeries(m);
        m->attachAxis(x);
        m->attachAxis(y);
    };
    double right = maxX;
    for (const auto& m : data.markers) {
        marker(m.at, m.label);
        if (m.at <= maxX * 1.5) right = std::max(right, static_cast<double>(m.at));
    }
    double left = logX ? 0.8 : 0, end = logX ? right * 1.25 : right * 1.05;
    if (data.referenceY) {
        // Across the whole width: where a ratio means "no difference".
        auto* ref = new QLineSeries;
        ref->setName(QStringLiteral("%1 = no difference").arg(*data.referenceY, 0, 'g', 3));
        ref->setPen(QPen(Qt::darkGray, 1, Qt::DashLine));
        ref->append(left, yOf(*data.referenceY));
        ref->append(end, yOf(*data.referenceY));
        addSeries(ref);
        ref->attachAxis(x);
        ref->attachAxis(y);
    }
    if (auto* linear = qobject_cast<QValueAxis*>(x)) {
        // Ticks on whole client counts: 1, 2, 5 or 10 times a power of ten apart.
        double step = 1;
        while (right / step > 10) step *= (static_cast<int>(std::log10(step) * 3) % 3 == 1 ? 2.5 : 2);
        linear->setTickType(QValueAxis::TicksDynamic);
        linear->setTickAnchor(0);
        linear->setTickInterval(step);
        linear->setRange(left, end);
    } else {
        x->setRange(left, end);
    }
}

int ScalingChart::errorBarArrowCount() const {
    int n = 0;
    for (auto* b : bars_) n += b->arrowCount();
    return n;
}

} // namespace scalelab::ui
