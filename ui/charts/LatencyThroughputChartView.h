#pragma once
// The latency-versus-throughput chart as pages see it: a widget that draws LatencyThroughputData.
#include "charts/ChartHostView.h"
#include "models/LatencyThroughputData.h"

namespace scalelab::ui {

class LatencyThroughputChart;

class LatencyThroughputChartView : public ChartHostView {
    Q_OBJECT
public:
    explicit LatencyThroughputChartView(QSize minimum, QWidget* parent = nullptr);
    void setData(const LatencyThroughputData& points, bool logY);
    QStringList pointLabels() const;
    int kneeMarkers() const;
    int skipMarkers() const;

private:
    LatencyThroughputChart* chart_;
};

} // namespace scalelab::ui
