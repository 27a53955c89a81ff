#include "charts/ChartView.h"

#include <QChartView>

namespace scalelab::ui {

QWidget* newChartView(QChart* chart, QSize minimum) {
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(minimum);
    return view;
}

} // namespace scalelab::ui
