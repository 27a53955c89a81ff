#pragma once
// The Waits tab's chart: WaitsStack as stacked bars, one bar per x, one colour per wait event.
#include "charts/ChartHostView.h"
#include "models/WaitsData.h"

class QBarCategoryAxis;
class QStackedBarSeries;
class QValueAxis;

namespace scalelab::ui {

class WaitsChartView : public ChartHostView {
    Q_OBJECT
public:
    explicit WaitsChartView(QSize minimum, QWidget* parent = nullptr);
    void setData(const WaitsStack& stack, const QString& title);
    QStringList xLabels() const;
    QStringList eventNames() const;  // the bar sets, bottom first

private:
    QStackedBarSeries* bars_;
    QBarCategoryAxis* x_;
    QValueAxis* y_;
};

} // namespace scalelab::ui
