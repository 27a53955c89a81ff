#include "charts/PlaceChart.h"

#include <QChartView>
#include <QVBoxLayout>

namespace scalelab::ui {

void placeChart(QWidget* owner, QChart* chart, QSize minimum) {
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(owner);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(view);
    owner->setMinimumSize(minimum);
}

} // namespace scalelab::ui
