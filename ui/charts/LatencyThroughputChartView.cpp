#include "charts/LatencyThroughputChartView.h"

#include "charts/LatencyThroughputChart.h"

namespace scalelab::ui {

LatencyThroughputChartView::LatencyThroughputChartView(QSize minimum, QWidget* parent)
    : ChartHostView(new LatencyThroughputChart, minimum, parent), chart_(static_cast<LatencyThroughputChart*>(chart())) {}

void LatencyThroughputChartView::setData(const LatencyThroughputData& points, bool logY) { chart_->setData(points, logY); }
QStringList LatencyThroughputChartView::pointLabels() const { return chart_->pointLabels(); }
int LatencyThroughputChartView::kneeMarkers() const { return chart_->kneeMarkers(); }
int LatencyThroughputChartView::skipMarkers() const { return chart_->skipMarkers(); }

} // namespace scalelab::ui
