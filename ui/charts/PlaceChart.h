#pragma once
// Inside charts/ only: fills `owner` with an antialiased view of `chart` (which the view owns),
// no margins, and makes `owner` at least `minimum` large.
#include <QSize>

class QChart;
class QWidget;

namespace scalelab::ui {

void placeChart(QWidget* owner, QChart* chart, QSize minimum);

} // namespace scalelab::ui
