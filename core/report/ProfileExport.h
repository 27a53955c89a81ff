#pragma once
// The CPU profiles of an experiment as files (issue 62): each point's folded stacks (export
// --folded DIR, the text FlameGraph, inferno and speedscope read), and the flame graph of one
// point or the differential one of two series at one x (export --svg F --flame / --flame-diff).
#include "stats/PointAxis.h"
#include "stats/ProfileReport.h"

#include <string>
#include <vector>

namespace scalelab {

// One file per point with a profile, "SERIES-8-clients.folded" (characters other than letters,
// digits, '.', '_' and '-' as '_'): the rounds' samples added. Returns the files written; Error
// when no point has a profile (with the points' reasons).
std::vector<std::string> writeFoldedFiles(const std::vector<PointProfile>& points, PointAxis axis, const std::string& dir);

// The point's flame graph; Error naming the series or x that has no profile, and why.
std::string pointFlameSvg(const std::vector<PointProfile>& points, PointAxis axis, const std::string& series, int x);
// B's flame graph coloured by its change against A, per 1,000 transactions.
std::string diffFlameSvg(const std::vector<PointProfile>& points, PointAxis axis, const std::string& baseline,
                         const std::string& candidate, int x);

} // namespace scalelab
