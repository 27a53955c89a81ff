#pragma once
// The CSV renderer of a StatsReport, and the one layout of points.csv. Schemas (one per file,
// documented in docs/statistics.md):
//   points.csv   series, clients, metric, n, mean, sd, se, confidence, ci_low, ci_high, median, min, max
//   compare.csv  clients, baseline, candidate, baseline_mean, candidate_mean, difference, diff_low,
//                diff_high, percent_change, percent_low, percent_high, p_value, paired, verdict (this
//                point alone), judged, p_adjusted, simultaneous_low, simultaneous_high, call, why
//                (the curve verdict's), detect_pct, power_now, runs_per_side, runs_for_curve, half_width_pct,
//                curve_half_width_pct
//   verdict.csv  baseline, candidate, metric, judged, confidence, sentence (the summary, in order)
//   usl.csv      series, model, lambda(_se), sigma(_se), kappa(_se), r_squared, kappa_above_zero,
//                converged, peak_clients(_se), peak_throughput(_se), amdahl_*, points, note
//   peak.csv     series, clients, mean, ci_low, ci_high, percent_of_baseline
// A value that does not exist (no interval for one run, no p-value) is an empty field, never 0.
#include "stats/Report.h"
#include "util/Csv.h"

#include <optional>
#include <string>
#include <vector>

namespace scalelab {

// The x column is named by the axis; `withCell`: rate and scale columns after it (export's tidy
// points.csv, a row per series, client count, offered rate and data scale; empty for unthrottled
// and for a scale not recorded).
void writePointsHeader(CsvWriter& csv, PointAxis axis = PointAxis::Clients, bool withCell = false);
void writePointRows(CsvWriter& csv, const std::vector<SeriesPoint>& points, RunMetric metric,
                    std::optional<GridCell> cell = std::nullopt);
// A cell's rate and scale as CSV fields: empty for none.
std::string rateField(double rate);
std::string scaleField(int64_t scale);

// DIR/points.csv (unless withPoints is false: exportCsv wrote every metric's there), and
// compare.csv, verdict.csv, usl.csv, peak.csv for the parts the report has. Creates DIR. Returns the files.
std::vector<std::string> writeReportCsv(const StatsReport& report, const std::string& dir, bool withPoints = true);

} // namespace scalelab
