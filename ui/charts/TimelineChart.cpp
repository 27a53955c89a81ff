#include "charts/TimelineChart.h"

#include <QAreaSeries>
#include <QColor>
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
} // namespace

TimelineChart::TimelineChart(const QString& title, const QString& yTitle, QStringList names, QStringList labels,
                             bool stacked, double fixedMaxY)
    : names_(std::move(names)), x_(new QValueAxis), y_(new QValueAxis), stacked_(stacked), fixedMaxY_(fixedMaxY) {
    setTitle(title);
    setAnimationOptions(QChart::NoAnimation);
    legend()->setAlignment(Qt::AlignBottom);
    x_->setTitleText(QStringLiteral("seconds"));
    x_->setLabelFormat(QStringLiteral("%g"));
    y_->setTitleText(yTitle);
    y_->setLabelFormat(QStringLiteral("%g"));
    addAxis(x_, Qt::AlignBottom);
    addAxis(y_, Qt::AlignLeft);
    QLineSeries* below = nullptr;
    for (int i = 0; i < names_.size(); ++i) {
        auto* line = new QLineSeries;
        lines_.append(line);
        if (stacked_) {
            auto* area = new QAreaSeries(line, below);
            line->setParent(area);  // an area series does not own its boundary lines
            area->setName(labels.value(i).toHtmlEscaped());  // legend names are rich text: escaped
            addSeries(area);
            area->attachAxis(x_);
            area->attachAxis(y_);
            below = line;
        } else {
            line->setName(labels.value(i).toHtmlEscaped());
            addSeries(line);
            line->attachAxis(x_);
            line->attachAxis(y_);
        }
    }
    x_->setRange(0, 10);
    y_->setRange(0, fixedMaxY_ > 0 ? fixedMaxY_ : 1);
}

void TimelineChart::showBoundaries(const QString& label) {
    boundaries_ = new QLineSeries;
    boundaries_->setName(label.toHtmlEscaped());
    boundaries_->setColor(QColor(150, 150, 150));
    addSeries(boundaries_);
    boundaries_->attachAxis(x_);
    boundaries_->attachAxis(y_);
}

void TimelineChart::refresh(const Timeline& timeline, int columns) {
    QList<QPointF> sum;
    double maxY = 0;
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
        for (const auto& p : pts) maxY = std::max(maxY, p.y());
        lines_[i]->replace(pts);
    }
    double xMax = niceCeil(std::max(10.0, timeline.lastX()));
    if (xMax != shownMaxX_) x_->setRange(0, shownMaxX_ = xMax);
    double yMax = fixedMaxY_ > 0 ? fixedMaxY_ : niceCeil(maxY * 1.05);
    if (yMax != shownMaxY_) y_->setRange(0, shownMaxY_ = yMax);
    if (boundaries_) {
        // One series: up and down at each boundary, along the x axis between them.
        QList<QPointF> marks;
        for (double b : timeline.boundaries()) marks << QPointF(b, 0) << QPointF(b, yMax) << QPointF(b, 0);
        boundaries_->replace(marks);
    }
}

int TimelineChart::pointCount() const {
    int n = 0;
    for (auto* l : lines_) n += static_cast<int>(l->count());
    if (boundaries_) n += static_cast<int>(boundaries_->count());
    return n;
}

} // namespace scalelab::ui
