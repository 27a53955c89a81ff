#include "charts/DistributionChartView.h"

#include "charts/DistributionChart.h"
#include "charts/PlaceChart.h"

#include <QAbstractSeries>

namespace scalelab::ui {

DistributionChartView::DistributionChartView(QSize minimum, QWidget* parent) : QWidget(parent), chart_(new DistributionChart) {
    placeChart(this, chart_, minimum);
}

void DistributionChartView::setData(const DistributionData& distribution) { chart_->setData(distribution); }

QStringList DistributionChartView::seriesNames() const {
    QStringList names;
    for (const QAbstractSeries* s : chart_->series())
        if (!s->name().isEmpty()) names << s->name();
    return names;
}

int DistributionChartView::curveCount() const { return static_cast<int>(chart_->series().size()); }
QStringList DistributionChartView::xTickLabels() const { return chart_->xTickLabels(); }
QChart* DistributionChartView::chart() const { return chart_; }

} // namespace scalelab::ui
