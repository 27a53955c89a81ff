#pragma once
// Where a page shows one of our charts: a plain widget, antialiased, at least `minimum` large.
// Pages place and measure it without Qt Charts' view (charts/ holds the Qt Charts code).
#include <QSize>
#include <QWidget>

class QChart;

namespace scalelab::ui {

QWidget* newChartView(QChart* chart, QSize minimum);

} // namespace scalelab::ui
