#pragma once
// While a sweep runs: progress (run k of n, series, clients, round, elapsed, ETA), Pause and
// Stop, the current run's tps and latency, CPU (stacked, and per PU), disk and server counters,
// and warnings as they happen.
#include "models/Timeline.h"
#include "sweep/SweepRunner.h"
#include "topo/Topology.h"

#include <QWidget>

class QChartView;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;

namespace scalelab::ui {

class PuStrip;
class TimelineChart;

class LivePage : public QWidget {
    Q_OBJECT
public:
    explicit LivePage(const TopologyInfo& machine, QWidget* parent = nullptr);

    void showProgress(const SweepProgress& p);
    void addSample(const SweepProgress& p, const LoadSample& s);
    void addWarning(const QString& text);
    void setRunning(bool running);

    TimelineChart* tpsChart() const { return tps_; }
    TimelineChart* latencyChart() const { return latency_; }
    TimelineChart* cpuChart() const { return cpu_; }
    const Timeline& timeline() const { return timeline_; }
    QPushButton* pauseButton() const { return pause_; }
    QPushButton* stopButton() const { return stop_; }
    void refreshCharts();

signals:
    void pauseRequested();
    void resumeRequested();
    void stopRequested();

private:
    Timeline timeline_;
    int currentRun_ = -1;
    bool paused_ = false;
    QProgressBar* bar_;
    QLabel* status_;
    QPushButton *pause_, *stop_;
    TimelineChart *tps_, *latency_, *cpu_, *disk_, *iops_, *server_;
    QList<QChartView*> views_;
    PuStrip* pus_;
    QListWidget* warnings_;
};

} // namespace scalelab::ui
