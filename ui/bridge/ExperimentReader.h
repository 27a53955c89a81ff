#pragma once
// Reads an experiment file on a worker thread and hands what it read to the thread that owns
// the reader (queued), so that a page following a file a sweep is writing does not stall while
// SQLite reads thousands of runs. One read at a time; the page asks again on its next tick.
#include "store/ExperimentStore.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

class QThread;

namespace scalelab::ui {

// What a follower needs of an experiment file, read in one go (value types only).
struct ExperimentSnapshot {
    std::vector<StoredSeries> series;
    std::vector<nlohmann::json> provenance;
    std::vector<RunRecord> runs;
};

class ExperimentReader : public QObject {
    Q_OBJECT
public:
    using Done = std::function<void(ExperimentSnapshot)>;
    using Failed = std::function<void(const QString& error)>;

    explicit ExperimentReader(QObject* parent = nullptr) : QObject(parent) {}
    ~ExperimentReader() override;  // waits for a read in flight; its result is dropped

    // Reads `path` read-only off this thread; `done` or `failed` runs later on this thread,
    // unless the reader is gone. Returns false, starting nothing, while a read is in flight.
    bool read(const QString& path, Done done, Failed failed);
    bool busy() const { return thread_ != nullptr; }

private:
    QThread* thread_ = nullptr;
};

} // namespace scalelab::ui
