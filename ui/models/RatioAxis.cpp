#include "models/RatioAxis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace scalelab::ui {
namespace {

// Where an interval that is not much wider than the points still shows whole.
constexpr double kMinHalfRange = 0.32192809488736235;  // log2(1.25)
constexpr double kPadding = 1.08;
// Ratios that read well, above 1; their reciprocals are the ticks below 1.
// 1.75 and 2.5: an axis that ends just short of 2 or 3 has a tick near its end (issue 61.11:
// error bars reached 1.9 above a last tick of 1.5).
constexpr double kLadder[] = {1.01, 1.02, 1.05, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 5, 10, 20, 50, 100, 1000, 10000, 100000};
constexpr size_t kMaxTicksPerSide = 4;

} // namespace

double RatioAxis::position(double ratio) const {
    return ratio > 0 ? std::log2(ratio) : -std::numeric_limits<double>::infinity();
}

QString ratioLabel(double ratio) {
    if (ratio >= 10) return QString::number(ratio, 'f', 0);
    return QString::number(ratio, 'g', ratio < 1 ? 2 : 3);
}

RatioAxis ratioAxisFor(const ScalingData& data) {
    double points = 0, bars = 0;
    for (const auto& s : data.series)
        for (const auto& p : s.points) {
            if (p.mean > 0) points = std::max(points, std::abs(std::log2(p.mean)));
            for (double end : {p.low, p.high})
                bars = end > 0 ? std::max(bars, std::abs(std::log2(end))) : std::numeric_limits<double>::infinity();
        }
    RatioAxis axis;
    double cap = std::max(2 * points, kMinHalfRange);
    axis.halfRange = std::max(points, std::min(bars, cap));
    axis.halfRange = std::max(axis.halfRange, std::log2(1.02)) * kPadding;
    // From the outermost inwards, a tick at least a fifth of the half range from the last one
    // and from 1, at most four a side: labels that never touch.
    std::vector<double> kept;
    const double gap = axis.halfRange / 5;
    double last = axis.halfRange + gap;
    for (auto it = std::rbegin(kLadder); it != std::rend(kLadder) && kept.size() < kMaxTicksPerSide; ++it) {
        double at = std::log2(*it);
        if (at > axis.halfRange || last - at < gap || at < gap) continue;
        kept.push_back(*it);
        last = at;
    }
    for (double k : kept) axis.ticks.append({-std::log2(k), ratioLabel(1 / k)});
    axis.ticks.append({0, QStringLiteral("1")});
    for (auto it = kept.rbegin(); it != kept.rend(); ++it) axis.ticks.append({std::log2(*it), ratioLabel(*it)});
    return axis;
}

} // namespace scalelab::ui
