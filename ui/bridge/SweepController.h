#pragma once
// Runs a SweepRunner on a worker thread and re-emits its events as queued signals carrying
// value types. The GUI never reads state the worker writes, and never waits for it.
#include "live/LiveMetrics.h"
#include "store/ExperimentStore.h"
#include "sweep/SweepRunner.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <memory>
#include <mutex>

Q_DECLARE_METATYPE(scalelab::SweepProgress)
Q_DECLARE_METATYPE(scalelab::LoadSample)
Q_DECLARE_METATYPE(scalelab::RunRecord)

namespace scalelab::ui {

class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    ~SweepController() override;  // stops a running sweep cleanly and waits for it

    bool running() const { return thread_ != nullptr; }
    // Every sweep started from now on also feeds this publisher (`gui --metrics-listen`).
    void publishTo(std::shared_ptr<MetricsPublisher> publisher) { publisher_ = std::move(publisher); }

public slots:
    // Starts `plan` into the experiment file `path` (created, or continued with resume).
    void start(const scalelab::SweepPlan& plan, const QString& path, bool resume);
    void pause();
    void resume();
    void stop();  // the run in progress ends cleanly and is kept, marked stopped

signals:
    void progress(const scalelab::SweepProgress& progress);
    void sample(const scalelab::SweepProgress& progress, const scalelab::LoadSample& sample);
    void runFinished(const scalelab::RunRecord& run);
    void note(const QString& text);
    void serverLog(const QStringList& lines);  // a server host's new log lines (docs/hosts.md)
    void finished(const QString& error);  // empty when the sweep ended normally or was stopped

private:
    class Relay;
    QThread* thread_ = nullptr;
    std::mutex mutex_;                     // guards runner_ and stopRequested_ (GUI and worker)
    std::shared_ptr<SweepRunner> runner_;
    bool stopRequested_ = false;
    std::shared_ptr<MetricsPublisher> publisher_;  // set on the GUI thread before a start
};

void registerMetaTypes();

} // namespace scalelab::ui
