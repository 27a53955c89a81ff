#pragma once
// While a sweep runs: progress (run k of n, series, clients, round, elapsed, ETA), Pause and
// Stop, the current run's tps and latency, CPU (stacked, and per PU), disk and server counters,
// the whole sweep's tps and CPU with run starts marked, and the sweep's messages (time-stamped; warnings and failures marked) as they happen.
#include "models/LogTail.h"
#include "models/Timeline.h"
#include "sweep/SweepRunner.h"
#include "topo/Topology.h"

#include <QElapsedTimer>
#include <QWidget>

#include <map>
#include <optional>
#include <string>

class QLabel;
class QListWidget;
class QProgressBar;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace scalelab::ui {

class PuStrip;
class TimelineChartView;

class LivePage : public QWidget {
    Q_OBJECT
public:
    explicit LivePage(const TopologyInfo& machine, QWidget* parent = nullptr);

    // A new sweep: messages, charts and status of the last one go.
    void startSweep();
    void showProgress(const SweepProgress& p);
    void addSample(const SweepProgress& p, const LoadSample& s);
    void addWarning(const QString& text);
    void setRunning(bool running);
    // The embedded server log of each series (by label; none for a server of the user's): the
    // Server log tab follows the log of the series that runs, as the server writes it.
    // With a server host (`serverHost`), its lines come through addServerLog instead.
    void setServerLogs(std::map<std::string, QString> logBySeries, QString serverHost = {});
    QPlainTextEdit* serverLog() const { return serverLog_; }
    void appendServerLog(const QString& line);  // follows the end while the view is at it
    // A server host's new log lines, read there by its agent (docs/hosts.md).
    void addServerLog(const QStringList& lines);
    void readServerLog();  // what the timer does every second while a sweep runs
    // The sweep ended: "" when it finished or was stopped as asked, else why it failed.
    void showFinished(const QString& error);

    QLabel* statusLabel() const { return status_; }
    QLabel* machineLabel() const { return machine_; }
    PuStrip* puStrip() const { return pus_; }
    QLabel* puLabel() const { return puLabel_; }
    QListWidget* messages() const { return warnings_; }

    TimelineChartView* tpsChart() const { return tps_; }
    TimelineChartView* latencyChart() const { return latency_; }
    TimelineChartView* cpuChart() const { return cpu_; }
    // The current run's six charts: throughput, latency, CPU, disk MB/s, disk operations, server.
    QList<TimelineChartView*> runCharts() const { return {tps_, latency_, cpu_, disk_, iops_, server_}; }
    const Timeline& timeline() const { return timeline_; }
    // Every run of the sweep on one axis (seconds since the sweep started), run starts marked.
    const Timeline& sweepTimeline() const { return sweep_; }
    TimelineChartView* sweepTpsChart() const { return sweepTps_; }
    // The Waits tab: the current run's wait events as they are sampled (issue 62).
    QTableWidget* waitsTable() const { return waits_; }
    QLabel* waitsNote() const { return waitsNote_; }
    QPushButton* pauseButton() const { return pause_; }
    QPushButton* stopButton() const { return stop_; }
    void startRunTimeline(const SweepProgress& p);  // a run (or a new attempt of it) begins
    void refreshCharts();
    bool showsNopm() const;  // the throughput charts have TPROC-C's NOPM (a TPROC-C sweep)

signals:
    void pauseRequested();
    void resumeRequested();
    void stopRequested();

private:
    // The status line for `p`, `since` seconds after it came (elapsed up, time left down).
    void showStatus(const SweepProgress& p, double since);
    Timeline timeline_;
    Timeline sweep_;
    double runStartX_ = 0;  // the current attempt's start on the sweep's axis
    int currentRun_ = -1;
    std::optional<SweepState> lastState_;  // none between sweeps
    SweepProgress last_;
    QElapsedTimer sinceProgress_;  // since last_ came: the clock runs on between progress reports
    bool paused_ = false;
    QProgressBar* bar_;
    QLabel* status_;
    QLabel* machine_;  // which machine the CPU, disk and PU figures are of
    QPushButton *pause_, *stop_;
    TimelineChartView *tps_, *latency_, *cpu_, *disk_, *iops_, *server_;
    TimelineChartView *sweepTps_, *sweepCpu_;
    PuStrip* pus_;
    QLabel* puLabel_;
    TopologyInfo thisMachine_;  // the PU strip's machine unless a metrics host's is shown
    QListWidget* warnings_;
    QTableWidget* waits_;
    QLabel* waitsNote_;
    void showWaits(const LoadSample& s);
    QPlainTextEdit* serverLog_;
    QTimer* serverLogTimer_;
    std::map<std::string, QString> logs_;
    LogTail tail_;
    QString serverHost_;  // the sweep's server host; empty: none
    std::string tailedSeries_;
    std::string scriptSet_;  // of the sweep's runs (SweepProgress::scriptSet)
    void followScriptSet(const SweepProgress& p);
};

} // namespace scalelab::ui
