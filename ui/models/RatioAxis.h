#pragma once
// The y axis of a ratio chart (issue 32.3): ratios are drawn on a log scale centred on 1, so
// that 0.8 and 1.25 (the same change, either way round) lie the same distance from "no
// difference", and the range is set by the points, not by an interval that one point with two
// runs stretched to 500. An interval beyond the range ends at the edge as an arrow; its values
// stay in the point's tooltip. Qt Core only: what the chart draws, decided here and tested.
#include "models/ScalingData.h"

#include <QList>
#include <QString>

namespace scalelab::ui {

struct RatioTick {
    double at = 0;  // log2 of the ratio: where the chart draws it
    QString label;  // the ratio: "0.8", "1", "1.25"
};

struct RatioAxis {
    double halfRange = 0;  // the axis spans log2 ratio -halfRange .. +halfRange
    QList<RatioTick> ticks;  // increasing, 1 among them
    double position(double ratio) const;  // log2(ratio); -inf for a ratio <= 0
};

// Centred on 1; wide enough for every point's ratio and for intervals up to twice the points'
// own spread (at least 0.8 .. 1.25); wider intervals end at the edge.
RatioAxis ratioAxisFor(const ScalingData& data);

// "0.8", "1.25", "0.67", "100": two significant digits below 1, three above.
QString ratioLabel(double ratio);

} // namespace scalelab::ui
