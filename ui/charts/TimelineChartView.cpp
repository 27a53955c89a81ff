#include "charts/TimelineChartView.h"

#include "charts/PlaceChart.h"
#include "charts/TimelineChart.h"

#include <QLegend>

namespace scalelab::ui {

TimelineChartView::TimelineChartView(const TimelineChartSpec& spec, QSize minimum, QWidget* parent)
    : QWidget(parent), chart_(new TimelineChart(spec)) {
    if (spec.legendAtRight) chart_->legend()->setAlignment(Qt::AlignRight);
    placeChart(this, chart_, minimum);
}

void TimelineChartView::setTitle(const QString& title) { chart_->setTitle(title); }
void TimelineChartView::showBoundaries(const QString& label) { chart_->showBoundaries(label); }
void TimelineChartView::refresh(const Timeline& timeline, int columns) { chart_->refresh(timeline, columns); }
int TimelineChartView::pointCount() const { return chart_->pointCount(); }
void TimelineChartView::setSpan(double seconds) { chart_->setSpan(seconds); }
void TimelineChartView::setRightShown(bool shown) { chart_->setRightShown(shown); }
QChart* TimelineChartView::chart() const { return chart_; }

} // namespace scalelab::ui
