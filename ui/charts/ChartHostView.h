#pragma once
// A widget that shows one chart of charts/ (antialiased, no margins): what the pages' chart
// views share. The legend's names for tests, the chart itself for exports (ChartExport).
#include <QSize>
#include <QStringList>
#include <QWidget>

class QChart;

namespace scalelab::ui {

class ChartHostView : public QWidget {
    Q_OBJECT
public:
    // Takes `chart` (its view owns it).
    ChartHostView(QChart* chart, QSize minimum, QWidget* parent = nullptr);
    QStringList seriesNames() const;  // the named series (legend entries), in order
    int seriesCount() const;          // every series drawn
    QChart* chart() const { return chart_; }

private:
    QChart* chart_;
};

} // namespace scalelab::ui
