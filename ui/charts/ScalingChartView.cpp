#include "charts/ScalingChartView.h"

#include "charts/PlaceChart.h"
#include "charts/ScalingChart.h"

#include <QAbstractSeries>

namespace scalelab::ui {

ScalingChartView::ScalingChartView(QSize minimum, QWidget* parent) : QWidget(parent), chart_(new ScalingChart) {
    placeChart(this, chart_, minimum);
    connect(chart_, &ScalingChart::pointHovered, this, &ScalingChartView::pointHovered);
}

void ScalingChartView::setData(const ScalingData& scaling, bool logX) { chart_->setData(scaling, logX); }

int ScalingChartView::errorBarCount() const { return chart_->errorBarCount(); }
int ScalingChartView::errorBarArrowCount() const { return chart_->errorBarArrowCount(); }
QStringList ScalingChartView::yTickLabels() const { return chart_->yTickLabels(); }

QStringList ScalingChartView::seriesNames() const {
    QStringList names;
    for (const QAbstractSeries* s : chart_->series()) names << s->name();
    return names;
}

QChart* ScalingChartView::chart() const { return chart_; }

} // namespace scalelab::ui
