#pragma once
// The latency distribution chart as pages see it: a widget that draws DistributionData.
#include "charts/ChartHostView.h"
#include "models/DistributionData.h"

namespace scalelab::ui {

class DistributionChart;

class DistributionChartView : public ChartHostView {
    Q_OBJECT
public:
    explicit DistributionChartView(QSize minimum, QWidget* parent = nullptr);
    void setData(const DistributionData& data);
    int curveCount() const { return seriesCount(); }  // every curve drawn, rounds included
    QStringList xTickLabels() const;

private:
    DistributionChart* distribution_;
};

} // namespace scalelab::ui
