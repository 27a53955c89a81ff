#pragma once
// The renderers of a StatsReport: the console tables `scalelab report` prints, and Markdown
// (`--format markdown`, the window's Copy as Markdown).
#include "stats/Report.h"

#include <string>
#include <vector>

namespace scalelab {

std::string reportText(const StatsReport& report);

// GitHub-flavoured Markdown: `summary` (experimentSummary's "Name: value" lines) as a list under
// "Experiment" when given, then the same tables, footnotes and verdict sentences.
std::string reportMarkdown(const StatsReport& report, const std::vector<std::string>& summary = {});

} // namespace scalelab
