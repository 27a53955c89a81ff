#pragma once
// What the scaling chart draws, computed from an experiment's runs by core/stats: per series,
// each point's mean and error bar, an optional USL curve; and the comparison and peak tables.
// Qt Core only; the chart only draws what is here.
#include "stats/ExperimentPoints.h"
#include "stats/MachineMarkers.h"
#include "stats/PointAxis.h"
#include "store/ExperimentStore.h"

#include <QList>
#include <QPointF>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace scalelab::ui {

enum class ErrorBars { ConfidenceInterval, StandardDeviation, MinMax };
QString errorBarsLabel(ErrorBars kind, double confidence);
// "ci", "sd", "minmax" (the command line's words); throws scalelab::Error listing them.
ErrorBars parseErrorBars(const std::string& name);

// What the Results page shows, and what its exports and `scalelab export` draw: one value, so
// an export is the view on screen.
struct ScalingView {
    RunMetric metric = RunMetric::Tps;
    ErrorBars bars = ErrorBars::ConfidenceInterval;
    double confidence = 0.95;
    bool logX = false;
    bool usl = false;
    PointAxis axis = PointAxis::Clients;  // the points' x (docs/sweeps.md, "Offered-load sweeps")
    QStringList series;  // the series drawn; empty: all. Colours stay the experiment's.
    QString describe() const;  // "tps, 95% confidence interval of the mean, log2 clients, USL fit"
    // The experiment's series that the view draws, in the experiment's order.
    std::vector<std::string> drawn(const std::vector<std::string>& order) const;
    // The runs of the series drawn (points are made of every series the runs name).
    std::vector<RunRecord> runsDrawn(const std::vector<RunRecord>& runs) const;
};

// The runs a view draws, on its axis: on the client axis with one rate per series the runs and
// order as they are and the view unchanged; else the runs of the series drawn as curves
// (runsOnAxis), `order` the curves, and a view that draws each of them (no USL off the client axis).
struct ViewRuns {
    std::vector<RunRecord> runs;
    std::vector<std::string> order;
    ScalingView view;
};
ViewRuns onViewAxis(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, const ScalingView& view);

// A point's x in words, for tool tips: "8 clients", "1000 tps offered".
QString xText(PointAxis axis, double x);

struct ScalingPointView {
    double clients = 0, mean = 0, low = 0, high = 0;  // clients: the point's x (a rate on the rate axis)
    int n = 0;
    QString tooltip;
};

struct ScalingSeriesView {
    QString label;
    int colorIndex = 0;           // the series' place in the experiment: its colour everywhere
    QList<ScalingPointView> points;
    QList<QPointF> fit;           // USL (or Amdahl) curve, when asked and possible
    std::optional<double> peakClients;
    QString fitText;              // parameters, or why there is no fit
};

struct MachineMarkerView {
    int at = 0;       // client count
    QString label;    // "this machine: 8 cores"
};

struct ScalingData {
    QString metric, unit, errorBars;
    PointAxis axis = PointAxis::Clients;  // the x axis' title and the points' words
    QList<ScalingSeriesView> series;
    QList<MachineMarkerView> markers;  // only machines some counted run was measured on
    std::optional<double> referenceY;  // a horizontal line: 1 on a ratio chart (no difference)
    bool ratioScale = false;           // y is a ratio: a log axis centred on 1 (models/RatioAxis)
    int pointCount() const;
};

ScalingData buildScalingData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                             RunMetric metric, ErrorBars bars, double confidence, bool withFit,
                             PointAxis axis = PointAxis::Clients);
ScalingData buildScalingData(const std::vector<RunRecord>& runs, const std::vector<std::string>& seriesOrder,
                             const ScalingView& view);
QList<MachineMarkerView> markerViews(const std::vector<MachineMarker>& markers);

} // namespace scalelab::ui
