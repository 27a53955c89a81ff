#pragma once
// How pages reach an experiment file: every read and write runs on one worker thread, in the
// order asked (a note saved, then the overview read again, sees the note), and what it read is
// handed to the thread that owns the bridge (queued). Opening a file of tens of thousands of
// runs, following a file a sweep is writing, a run's samples, an exclusion: none stalls the
// window. Each task opens the file itself (SQLite connections are not shared across threads).
#include "bridge/ErrorText.h"
#include "store/ExperimentStore.h"
#include "store/StatementTexts.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

class QThread;

namespace scalelab {
struct CombinedRuns;
}

namespace scalelab::ui {

// What the Results page shows of an experiment file, read in one go (value types only).
struct ExperimentSnapshot {
    std::vector<StoredSeries> series;
    std::vector<nlohmann::json> provenance;
    std::vector<RunRecord> runs;
    StatementTexts statementTexts;  // pg_stat_statements' texts of the runs' statements
};

// What the Overview page shows: the overview as HTML and the experiment's note.
struct OverviewText {
    std::string html;
    std::string note;
};

class ExperimentBridge : public QObject {
    Q_OBJECT
public:
    template <class T>
    using Done = std::function<void(T)>;
    using Failed = std::function<void(const QString& error)>;

    explicit ExperimentBridge(QObject* parent = nullptr);
    // Finishes the tasks asked for (a write the user made is not lost when the window closes);
    // their results are dropped.
    ~ExperimentBridge() override;

    // Each runs `done` or `failed` later on this object's thread, unless the bridge is gone.
    // Reads open the file read-only; a missing file is an error, never an empty experiment.
    void readExperiment(const QString& path, Done<ExperimentSnapshot> done, Failed failed);
    void readOverview(const QString& path, Done<OverviewText> done, Failed failed);
    void readSamples(const QString& path, int64_t runId, Done<std::vector<StoredSample>> done, Failed failed);
    // `into` with the runs and series of `other` added ("LABEL [FILE]"), as addExperimentRuns.
    void addExperimentRuns(CombinedRuns into, const QString& other, Done<CombinedRuns> done, Failed failed);
    void setExcluded(const QString& path, int64_t runId, bool excluded, std::function<void()> done, Failed failed);
    void setRunNote(const QString& path, int64_t runId, const QString& note, std::function<void()> done, Failed failed);
    // Writes the experiment's note, then reads the overview again (its note and counts).
    void setNote(const QString& path, const QString& note, Done<OverviewText> done, Failed failed);

    // Any other work on experiment files (imports, exports): `work` on the worker thread, in
    // order with the rest; `done` gets its value here. An exception's message goes to `failed`.
    template <class T>
    void call(std::function<T()> work, Done<T> done, Failed failed) {
        submitRead(std::move(work), std::move(done), std::move(failed));
    }

    int pending() const { return pending_; }  // tasks asked for whose result has not arrived

private:
    // `work` runs on the worker thread and returns what to run on this thread with its result.
    void submit(std::function<std::function<void()>()> work);
    template <class T>
    void submitRead(std::function<T()> read, Done<T> done, Failed failed) {
        submit([read = std::move(read), done = std::move(done), failed = std::move(failed)]() -> std::function<void()> {
            try {
                auto result = std::make_shared<T>(read());
                return [done, result] { done(std::move(*result)); };
            } catch (const std::exception& e) {
                QString error = errorText(e);
                return [failed, error] { failed(error); };
            }
        });
    }

    QThread* thread_;
    QObject* worker_;  // lives on thread_: tasks are queued calls on it, so they run in order
    int pending_ = 0;
};

} // namespace scalelab::ui
