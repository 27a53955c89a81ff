#include "charts/TimelineChart.h"

#include <QAreaSeries>
#include <QColor>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>

#include <cmath>

namespace scalelab::ui {
namespace {
// A "nice" upper bound: 1, 2 or 5 times a power of ten, so the axis moves rarely.
double niceCeil(double v) {
    if (v <= 0) return 1;
    double p = std::pow(10, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (v <= m * p) return m * p;
    return 10 * p;
}

// Seconds between x ticks: 1, 2 or 5 times a power of ten, at most five intervals, so that
// the labels of a narrow chart are whole numbers that fit (issue 32.9: "0 ... 5 ... 10").
double tickStep(double end) {
    double step = niceCeil(end / 5);
    return std::max(1.0, step);
}

void attach(QAbstractSeries* series, QValueAxis* x, QValueAxis* y) {
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace

TimelineChart::TimelineChart(const TimelineChartSpec& spec)
    : names_(spec.names), yTitle_(spec.yTitle), rightTitle_(spec.rightTitle), x_(new QValueAxis), y_(new QValueAxis),
      rightFrom_(spec.rightFrom), stacked_(spec.stacked), fixedMaxY_(spec.fixedMaxY) {
    setTitle(spec.title);
    setAnimationOptions(QChart::NoAnimation);
    // Six of these share a laptop's width: the room Qt's default frame takes goes to the axes,
    // whose labels it otherwise cuts to "5..." (issue 32.9).
    setMargins(QMargins(2, 2, 2, 2));
    layout()->setContentsMargins(0, 0, 0, 0);
    setBackgroundRoundness(0);
    legend()->setAlignment(Qt::AlignBottom);
    x_->setTitleText(QStringLiteral("seconds"));
    x_->setLabelFormat(QStringLiteral("%g"));
    x_->setTickType(QValueAxis::TicksDynamic);
    x_->setTickAnchor(0);
    y_->setTitleText(spec.yTitle);
    y_->setLabelFormat(QStringLiteral("%g"));
    addAxis(x_, Qt::AlignBottom);
    addAxis(y_, Qt::AlignLeft);
    if (rightFrom_ >= 0 && rightFrom_ < names_.size()) {
        right_ = new QValueAxis;
        right_->setTitleText(spec.rightTitle);
        right_->setLabelFormat(QStringLiteral("%g"));
        addAxis(right_, Qt::AlignRight);
    }
    QLineSeries* below = nullptr;
    for (int i = 0; i < names_.size(); ++i) {
        auto* line = new QLineSeries;
        lines_.append(line);
        QValueAxis* y = right_ && i >= rightFrom_ ? right_ : y_;
        if (stacked_) {
            auto* area = new QAreaSeries(line, below);
            line->setParent(area);  // an area series does not own its boundary lines
            area->setName(spec.labels.value(i).toHtmlEscaped());  // legend names are rich text: escaped
            addSeries(area);
            attach(area, x_, y);
            below = line;
        } else {
            line->setName(spec.labels.value(i).toHtmlEscaped());
            addSeries(line);
            attach(line, x_, y);
            if (right_) {  // which axis is whose: the axis titles take the lines' colours
                QColor c = line->color();
                (y == right_ ? right_ : y_)->setTitleBrush(c);
            }
        }
    }
    setX(10);
    y_->setRange(0, fixedMaxY_ > 0 ? fixedMaxY_ : 1);
    if (right_) right_->setRange(0, 1);
}

void TimelineChart::showBoundaries(const QString& label) {
    boundaries_ = new QLineSeries;
    boundaries_->setName(label.toHtmlEscaped());
    boundaries_->setColor(QColor(150, 150, 150));
    addSeries(boundaries_);
    attach(boundaries_, x_, y_);
}

void TimelineChart::setX(double end) {
    if (end == shownMaxX_) return;
    x_->setRange(0, shownMaxX_ = end);
    x_->setTickInterval(tickStep(end));
}

void TimelineChart::setSpan(double seconds) {
    span_ = seconds > 0 ? seconds : 0;
    shownMaxX_ = -1;  // the next refresh sets the axis
}

void TimelineChart::refresh(const Timeline& timeline, int columns) {
    QList<QPointF> sum;
    QList<QList<QPointF>> all;
    double maxY = 0, maxRight = 0;
    for (int i = 0; i < names_.size(); ++i) {
        QList<QPointF> pts = timeline.points(names_[i], columns);
        if (stacked_) {  // each band sits on the ones before it
            if (sum.size() != pts.size()) sum = QList<QPointF>(pts.size(), QPointF());
            for (qsizetype k = 0; k < pts.size(); ++k) {
                sum[k].setX(pts[k].x());
                sum[k].setY(sum[k].y() + pts[k].y());
                pts[k].setY(sum[k].y());
            }
        }
        double& most = right_ && i >= rightFrom_ ? maxRight : maxY;
        for (const auto& p : pts) most = std::max(most, p.y());
        all.append(pts);
    }
    // Tens of thousands are drawn in thousands: "80" under a "k reads/s" title fits a narrow
    // chart where "80000" was cut to "8..." (issue 32.9).
    // The axis's rounded top decides, not the data's: 5,400 NOPM gets a 10,000 axis, whose label
    // "10000" was cut to "10..." too.
    double leftScale = fixedMaxY_ <= 0 && niceCeil(maxY * 1.05) >= 10000 ? 1000 : 1,
           rightScale = niceCeil(maxRight * 1.05) >= 10000 ? 1000 : 1;
    for (int i = 0; i < names_.size(); ++i) {
        QList<QPointF>& pts = all[i];
        double scale = right_ && i >= rightFrom_ ? rightScale : leftScale;
        if (scale != 1)
            for (auto& p : pts) p.setY(p.y() / scale);
        // A line needs two samples: the run's first one shows as a dot the moment it comes,
        // not a second later with the next (issue 32.9: empty charts at each run start).
        lines_[i]->setPointsVisible(pts.size() < 3);
        lines_[i]->replace(pts);
    }
    // The run's planned length when known, whole seconds beyond it if it runs on; else a
    // nice bound of at least 10 s (the whole sweep).
    setX(span_ > 0 ? std::max(span_, std::ceil(timeline.lastX())) : niceCeil(std::max(10.0, timeline.lastX())));
    double yMax = fixedMaxY_ > 0 ? fixedMaxY_ : niceCeil(maxY / leftScale * 1.05);
    if (yMax != shownMaxY_) y_->setRange(0, shownMaxY_ = yMax);
    y_->setTitleText(leftScale == 1 ? yTitle_ : QStringLiteral("k ") + yTitle_);
    if (right_) {
        double rightMax = niceCeil(maxRight / rightScale * 1.05);
        if (rightMax != shownMaxRight_) right_->setRange(0, shownMaxRight_ = rightMax);
        right_->setTitleText(rightScale == 1 ? rightTitle_ : QStringLiteral("k ") + rightTitle_);
    }
    if (boundaries_) {
        // One series: up and down at each boundary, along the x axis between them.
        QList<QPointF> marks;
        for (double b : timeline.boundaries()) marks << QPointF(b, 0) << QPointF(b, yMax) << QPointF(b, 0);
        boundaries_->replace(marks);
    }
}

void TimelineChart::setRightShown(bool shown) {
    if (!right_) return;
    right_->setVisible(shown);
    for (int i = rightFrom_; i < lines_.size(); ++i) {
        lines_[i]->setVisible(shown);
        for (QLegendMarker* m : legend()->markers(lines_[i])) m->setVisible(shown);
    }
}

int TimelineChart::pointCount() const {
    int n = 0;
    for (auto* l : lines_) n += static_cast<int>(l->count());
    if (boundaries_) n += static_cast<int>(boundaries_->count());
    return n;
}

} // namespace scalelab::ui
