#include "charts/BoxPlotChartView.h"

#include "charts/BoxPlotChart.h"

namespace scalelab::ui {

BoxPlotChartView::BoxPlotChartView(QSize minimum, QWidget* parent)
    : ChartHostView(new BoxPlotChart, minimum, parent), boxes_(static_cast<BoxPlotChart*>(chart())) {}

void BoxPlotChartView::setData(const BoxPlotData& boxes) { boxes_->setData(boxes); }
int BoxPlotChartView::boxCount() const { return boxes_->boxCount(); }
QStringList BoxPlotChartView::xTickLabels() const { return boxes_->xTickLabels(); }

} // namespace scalelab::ui
