#include "charts/DistributionChartView.h"

#include "charts/DistributionChart.h"

namespace scalelab::ui {

DistributionChartView::DistributionChartView(QSize minimum, QWidget* parent)
    : ChartHostView(new DistributionChart, minimum, parent), distribution_(static_cast<DistributionChart*>(chart())) {}

void DistributionChartView::setData(const DistributionData& distribution) { distribution_->setData(distribution); }
QStringList DistributionChartView::xTickLabels() const { return distribution_->xTickLabels(); }

} // namespace scalelab::ui
