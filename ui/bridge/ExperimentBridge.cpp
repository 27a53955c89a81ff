#include "bridge/ExperimentBridge.h"

#include "store/CombinedRuns.h"
#include "store/ExperimentOverview.h"
#include "report/HtmlReport.h"

#include <QMetaObject>
#include <QThread>

namespace scalelab::ui {
namespace {
OverviewText overviewOf(ExperimentStore& store) {
    return {overviewHtml(experimentOverview(store)), store.note()};
}
} // namespace

ExperimentBridge::ExperimentBridge(QObject* parent) : QObject(parent), thread_(new QThread), worker_(new QObject) {
    thread_->setObjectName(QStringLiteral("experiment-bridge"));
    worker_->moveToThread(thread_);
    thread_->start();
}

ExperimentBridge::~ExperimentBridge() {
    // Queued behind every task already asked for: they run, then the thread ends. Their
    // deliveries to this object are discarded with it.
    QThread* thread = thread_;
    QMetaObject::invokeMethod(worker_, [thread] { thread->quit(); }, Qt::QueuedConnection);
    thread_->wait();
    delete worker_;
    delete thread_;
}

void ExperimentBridge::submit(std::function<std::function<void()>()> work) {
    ++pending_;
    QMetaObject::invokeMethod(worker_, [this, work = std::move(work)] {
        std::function<void()> deliver = work();
        QMetaObject::invokeMethod(this, [this, deliver = std::move(deliver)] {
            --pending_;
            deliver();
        }, Qt::QueuedConnection);
    }, Qt::QueuedConnection);
}

void ExperimentBridge::readExperiment(const QString& path, Done<ExperimentSnapshot> done, Failed failed) {
    std::function<ExperimentSnapshot()> read = [file = path.toStdString()] {
        auto store = ExperimentStore::open(file, true);
        return ExperimentSnapshot{store->series(), store->provenance(), store->runs(), statementTexts(*store)};
    };
    submitRead(std::move(read), std::move(done), std::move(failed));
}

void ExperimentBridge::readOverview(const QString& path, Done<OverviewText> done, Failed failed) {
    std::function<OverviewText()> read = [file = path.toStdString()] { return overviewOf(*ExperimentStore::open(file, true)); };
    submitRead(std::move(read), std::move(done), std::move(failed));
}

void ExperimentBridge::readSamples(const QString& path, int64_t runId, Done<std::vector<StoredSample>> done, Failed failed) {
    std::function<std::vector<StoredSample>()> read = [file = path.toStdString(), runId] {
        return ExperimentStore::open(file, true)->samples(runId);
    };
    submitRead(std::move(read), std::move(done), std::move(failed));
}

void ExperimentBridge::addExperimentRuns(CombinedRuns into, const QString& other, Done<CombinedRuns> done, Failed failed) {
    std::function<CombinedRuns()> read = [into = std::move(into), file = other.toStdString()]() mutable {
        scalelab::addExperimentRuns(into, file);
        return std::move(into);
    };
    submitRead(std::move(read), std::move(done), std::move(failed));
}

void ExperimentBridge::setExcluded(const QString& path, int64_t runId, bool excluded, std::function<void()> done, Failed failed) {
    std::function<bool()> write = [file = path.toStdString(), runId, excluded] {
        ExperimentStore::open(file)->setExcluded(runId, excluded);
        return true;
    };
    submitRead<bool>(std::move(write), [done = std::move(done)](bool) { done(); }, std::move(failed));
}

void ExperimentBridge::setRunNote(const QString& path, int64_t runId, const QString& note, std::function<void()> done, Failed failed) {
    std::function<bool()> write = [file = path.toStdString(), runId, text = note.toStdString()] {
        ExperimentStore::open(file)->setRunNote(runId, text);
        return true;
    };
    submitRead<bool>(std::move(write), [done = std::move(done)](bool) { done(); }, std::move(failed));
}

void ExperimentBridge::setNote(const QString& path, const QString& note, Done<OverviewText> done, Failed failed) {
    std::function<OverviewText()> write = [file = path.toStdString(), text = note.toStdString()] {
        ExperimentStore::open(file)->setNote(text);
        return overviewOf(*ExperimentStore::open(file, true));
    };
    submitRead(std::move(write), std::move(done), std::move(failed));
}

} // namespace scalelab::ui
