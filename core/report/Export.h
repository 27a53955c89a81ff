#pragma once
// An experiment out of ScaleLab: tidy (long) CSV files for pandas, R, gnuplot and
// spreadsheets, and JSON of everything. No password is ever in either (plans refuse them).
#include "store/ExperimentStore.h"

#include <nlohmann/json.hpp>

#include <string>

namespace scalelab {

// DIR/runs.csv (one row per run), DIR/points.csv (series, clients, metric, n, mean, sd, se,
// CI, median, min, max: completed runs not excluded), DIR/samples.csv (one row per interval),
// DIR/latency-histograms.csv and DIR/latency-percentiles.csv (report/ExportLatency.h).
// Creates DIR when missing. Returns the files written.
std::vector<std::string> exportCsv(ExperimentStore& store, const std::string& dir, double confidence = 0.95);

nlohmann::json exportJson(ExperimentStore& store, bool withSamples = true);

} // namespace scalelab
