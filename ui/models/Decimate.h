#pragma once
// Long timelines stay interactive: at most two points (min and max) per pixel column, so a 24 h
// run at 1 s (86,400 points) draws as a few thousand without losing its peaks.
#include <QList>
#include <QPointF>

#include <vector>

namespace scalelab::ui {

// Points with x in [xMin, xMax] (x ascending), reduced to the first, min, max and last point of
// each of `columns` equal slices of the range. Fewer than 4 * columns points come back unchanged.
QList<QPointF> decimateMinMax(const std::vector<double>& x, const std::vector<double>& y, double xMin, double xMax,
                              int columns);

} // namespace scalelab::ui
