#pragma once
// The rounds' box plots as pages see them: a widget that draws BoxPlotData.
#include "charts/ChartHostView.h"
#include "models/BoxPlotData.h"

namespace scalelab::ui {

class BoxPlotChart;

class BoxPlotChartView : public ChartHostView {
    Q_OBJECT
public:
    explicit BoxPlotChartView(QSize minimum, QWidget* parent = nullptr);
    void setData(const BoxPlotData& boxes);
    int boxCount() const;
    QStringList xTickLabels() const;

private:
    BoxPlotChart* boxes_;
};

} // namespace scalelab::ui
