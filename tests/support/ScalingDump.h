#pragma once
// What a chart would draw from ScalingData, as text to compare with what the user should see.
#include "models/ScalingData.h"

#include <QStringList>

namespace scalelab::test {

inline QString dump(const ui::ScalingData& d, int decimals = 2) {
    QStringList lines{QStringLiteral("%1 [%2], %3").arg(d.metric, d.unit, d.errorBars)};
    for (const auto& s : d.series) {
        lines << QStringLiteral("%1 (colour %2)").arg(s.label).arg(s.colorIndex);
        for (const auto& p : s.points)
            lines << QStringLiteral("  at %1: n %2, mean %3 [%4, %5]")
                         .arg(p.clients)
                         .arg(p.n)
                         .arg(p.mean, 0, 'f', decimals)
                         .arg(p.low, 0, 'f', decimals)
                         .arg(p.high, 0, 'f', decimals);
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace scalelab::test
