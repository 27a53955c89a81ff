#include "charts/ChartHostView.h"

#include "charts/PlaceChart.h"

#include <QAbstractSeries>
#include <QChart>

namespace scalelab::ui {

ChartHostView::ChartHostView(QChart* chart, QSize minimum, QWidget* parent) : QWidget(parent), chart_(chart) {
    placeChart(this, chart_, minimum);
}

QStringList ChartHostView::seriesNames() const {
    QStringList names;
    for (const QAbstractSeries* s : chart_->series())
        if (!s->name().isEmpty()) names << s->name();
    return names;
}

int ChartHostView::seriesCount() const { return static_cast<int>(chart_->series().size()); }

} // namespace scalelab::ui
