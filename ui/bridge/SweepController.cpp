#include "bridge/SweepController.h"
#include "bridge/ErrorText.h"
#include "sweep/SweepObserverTee.h"

#include <QMetaObject>

namespace scalelab::ui {

void registerMetaTypes() {
    qRegisterMetaType<scalelab::SweepProgress>();
    qRegisterMetaType<scalelab::LoadSample>();
    qRegisterMetaType<scalelab::RunRecord>();
}

// On the worker thread: turns observer calls into queued signal emissions on the controller.
class SweepController::Relay : public SweepObserver {
public:
    explicit Relay(SweepController* c) : c_(c) {}
    void onProgress(const SweepProgress& p) override {
        QMetaObject::invokeMethod(c_, [c = c_, p] { emit c->progress(p); }, Qt::QueuedConnection);
    }
    void onSample(const SweepProgress& p, const LoadSample& s) override {
        QMetaObject::invokeMethod(c_, [c = c_, p, s] { emit c->sample(p, s); }, Qt::QueuedConnection);
    }
    void onRunFinished(const RunRecord& r) override {
        QMetaObject::invokeMethod(c_, [c = c_, r] { emit c->runFinished(r); }, Qt::QueuedConnection);
    }
    void onNote(const std::string& s) override {
        QString text = QString::fromStdString(s);
        QMetaObject::invokeMethod(c_, [c = c_, text] { emit c->note(text); }, Qt::QueuedConnection);
    }
    void onServerLog(const std::vector<std::string>& lines) override {  // the follower's thread
        QStringList text;
        for (const auto& line : lines) text << QString::fromStdString(line);
        QMetaObject::invokeMethod(c_, [c = c_, text] { emit c->serverLog(text); }, Qt::QueuedConnection);
    }

private:
    SweepController* c_;
};

SweepController::SweepController(QObject* parent) : QObject(parent) { registerMetaTypes(); }

SweepController::~SweepController() {
    if (thread_) {
        stop();
        thread_->wait();
    }
}

void SweepController::start(const SweepPlan& plan, const QString& path, bool resume) {
    if (thread_) return;
    stopRequested_ = false;
    std::string file = path.toStdString();
    std::shared_ptr<MetricsPublisher> publisher = publisher_;
    if (publisher) publisher->setExperiment(experimentLabelOf(file));
    thread_ = QThread::create([this, plan, file, resume, publisher] {
        QString error;
        try {
            auto store = resume ? ExperimentStore::open(file) : ExperimentStore::openOrCreate(file);
            Relay relay(this);
            SweepObserverTee observers({&relay, publisher.get()});
            auto runner = std::make_shared<SweepRunner>(plan, *store, &observers, resume);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                runner_ = runner;
                if (stopRequested_) runner->stop();
            }
            runner->run();
        } catch (const std::exception& e) {
            error = errorText(e);
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            runner_.reset();
        }
        QMetaObject::invokeMethod(this, [this, error] {
            thread_->wait();
            thread_->deleteLater();
            thread_ = nullptr;
            emit finished(error);
        }, Qt::QueuedConnection);
    });
    thread_->start();
}

void SweepController::pause() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (runner_) runner_->pause();
}
void SweepController::resume() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (runner_) runner_->resume();
}
void SweepController::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopRequested_ = true;
    if (runner_) runner_->stop();
}

} // namespace scalelab::ui
