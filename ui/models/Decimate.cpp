#include "models/Decimate.h"

#include <algorithm>

namespace scalelab::ui {

QList<QPointF> decimateMinMax(const std::vector<double>& x, const std::vector<double>& y, double xMin, double xMax,
                              int columns) {
    QList<QPointF> out;
    auto first = std::lower_bound(x.begin(), x.end(), xMin);
    auto last = std::upper_bound(x.begin(), x.end(), xMax);
    size_t from = static_cast<size_t>(first - x.begin()), to = static_cast<size_t>(last - x.begin());
    if (to <= from) return out;
    if (columns < 1 || to - from < static_cast<size_t>(4 * columns)) {
        out.reserve(static_cast<qsizetype>(to - from));
        for (size_t i = from; i < to; ++i) out.append(QPointF(x[i], y[i]));
        return out;
    }
    out.reserve(4 * columns);
    double width = (xMax - xMin) / columns;
    size_t i = from;
    for (int c = 0; c < columns && i < to; ++c) {
        double end = c == columns - 1 ? xMax : xMin + width * (c + 1);
        size_t start = i, lo = i, hi = i;
        while (i < to && x[i] <= end) {
            if (y[i] < y[lo]) lo = i;
            if (y[i] > y[hi]) hi = i;
            ++i;
        }
        if (i == start) continue;
        // Keep the slice's points in x order: first, the extremes in order, last.
        size_t picks[4] = {start, std::min(lo, hi), std::max(lo, hi), i - 1};
        size_t previous = SIZE_MAX;
        for (size_t p : picks)
            if (p != previous) out.append(QPointF(x[p], y[p])), previous = p;
    }
    return out;
}

} // namespace scalelab::ui
