#pragma once
// The latency distribution chart as pages see it: a widget that draws DistributionData. Qt
// Charts stays inside charts/; exports reach the chart itself through chart().
#include "models/DistributionData.h"

#include <QSize>
#include <QStringList>
#include <QWidget>

class QChart;

namespace scalelab::ui {

class DistributionChart;

class DistributionChartView : public QWidget {
    Q_OBJECT
public:
    explicit DistributionChartView(QSize minimum, QWidget* parent = nullptr);
    void setData(const DistributionData& data);
    QStringList seriesNames() const;  // of the named curves (the merged ones), in order
    int curveCount() const;           // every curve drawn, rounds included
    QStringList xTickLabels() const;
    QChart* chart() const;            // for ChartExport

private:
    DistributionChart* chart_;
};

} // namespace scalelab::ui
