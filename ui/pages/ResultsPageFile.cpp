// The Results page and its file: loading, following, adding another experiment's series, a
// run's samples and the writes of exclusions and notes. Every read and write goes through the
// page's ExperimentBridge, off the GUI thread; a result that arrives after the page was loaded
// with another file or cleared (the generation moved on) is dropped.
#include "pages/ResultsPage.h"
#include "pages/PlainText.h"

#include "charts/TimelineChartView.h"
#include "metrics/MetricsMachine.h"
#include "store/CombinedRuns.h"
#include "store/PgStore.h"

#include <QDateTime>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <utility>

namespace scalelab::ui {
namespace {
// What changes when a writer commits: the file's and its -wal's sizes and times.
QString fileState(const QString& path) {
    QString state;
    for (const QString& p : {path, path + QStringLiteral("-wal")}) {
        QFileInfo f(p);
        state += QStringLiteral("%1:%2:%3;").arg(f.exists()).arg(f.size()).arg(f.lastModified().toMSecsSinceEpoch());
    }
    return state;
}
} // namespace

void ResultsPage::load(const QString& path) {
    ++generation_;
    loading_ = true;
    following_ = adding_ = storedDuringRead_ = false;
    follow_->stop();
    // Taken before the read: a commit between the two is read again by the next follow tick.
    QString state = fileState(path);
    store_->readExperiment(
        path,
        [this, path, state, generation = generation_, edits = edits_](ExperimentSnapshot snapshot) {
            if (generation != generation_) return;
            if (edits != edits_) {
                // Read before an edit on screen was written: it would undo the edit. The write
                // was asked for after this read, so a read asked for now comes after it.
                load(path);
                return;
            }
            loading_ = false;
            if (path != path_) {  // series added from other files belong to the experiment they were added to
                added_ = CombinedRuns{};
                addedFiles_.clear();
            }
            path_ = path;
            fileState_ = state;
            seriesOrder_.clear();
            for (const auto& s : snapshot.series) seriesOrder_.push_back(s.label);
            for (const auto& s : added_.order) seriesOrder_.push_back(s);
            provenance_ = std::move(snapshot.provenance);
            statementTexts_ = std::move(snapshot.statementTexts);
            hidden_.clear();
            detailRun_ = -1;
            runs_->setRuns(std::move(snapshot.runs));
            offerSeries();
            offerMetricsPresent();
            refresh();
            follow_->start();
            emit loaded(path);
            followFile();
        },
        [this, path, generation = generation_](const QString& error) {
            if (generation != generation_) return;
            loading_ = false;
            if (!path_.isEmpty()) follow_->start();  // the page still shows, and follows, its file
            emit loadFailed(path, error);
        });
}

void ResultsPage::watch(const QString& path, const std::vector<std::string>& seriesOrder) {
    clear();
    path_ = path;
    seriesOrder_ = seriesOrder;
    offerSeries();
    follow_->start();
    followFile();
}

// A file that a sweep (of this window or another ScaleLab) is writing is followed read-only:
// new runs appear, the chart and tables are recomputed, and the selected run stays selected.
void ResultsPage::followFile() {
    if (path_.isEmpty() || loading_) return;
    if (isStoreLocation(path_.toStdString())) return followStore();
    bool writing = ExperimentStore::beingWritten(path_.toStdString());
    followNote_->setText(tr("A sweep is writing this file: the page follows it (read-only), reading it again every %1 s.")
                             .arg(follow_->interval() / 1000));
    followNote_->setVisible(writing);
    QString state = fileState(path_);
    if (state == fileState_ || !QFileInfo::exists(path_)) return;  // not there yet: a sweep is starting
    if (following_) return;  // the next tick reads what changed meanwhile
    fileState_ = state;
    readAgain();
}

// An experiment in a results store: whether it changed, and whether a sweep writes it, is a
// question to the server, asked off the GUI thread like every read (a slow network, a store
// that went away: the window does not wait).
void ResultsPage::followStore() {
    if (checking_) return;
    checking_ = true;
    std::function<ExperimentChange()> ask = [location = path_.toStdString()] { return experimentChange(location); };
    store_->call<ExperimentChange>(
        std::move(ask),
        [this, generation = generation_](ExperimentChange change) {
            checking_ = false;
            if (generation != generation_) return;
            followNote_->setText(tr("A sweep is writing this experiment: the page follows it (read-only), asking the "
                                    "store again every %1 s.").arg(follow_->interval() / 1000));
            followNote_->setVisible(change.beingWritten);
            QString state = QString::fromStdString(change.mark);
            if (state == fileState_ || following_ || loading_) return;
            fileState_ = state;
            readAgain();
        },
        [this, generation = generation_](const QString& error) {
            checking_ = false;
            if (generation != generation_) return;
            followNote_->setText(tr("Cannot read %1 now: %2").arg(path_, error));
            followNote_->show();
        });
}

void ResultsPage::readAgain() {
    following_ = true;
    store_->readExperiment(
        path_,
        [this, generation = generation_, edits = edits_](ExperimentSnapshot snapshot) {
            if (generation != generation_) return;  // the page was loaded or cleared meanwhile
            following_ = false;
            if (edits != edits_) {
                // Read before an edit of this page was written: it would undo the edit on screen.
                // The write changed the file, so the next tick reads it again.
                fileState_.clear();
                return;
            }
            mergeSeriesOrder(snapshot.series);
            provenance_ = std::move(snapshot.provenance);
            statementTexts_ = std::move(snapshot.statementTexts);
            runs_->syncRuns(std::move(snapshot.runs));
            offerMetricsPresent();
            refresh();
            if (std::exchange(storedDuringRead_, false)) followFile();  // a run stored after this read began
        },
        [this, generation = generation_](const QString& error) {
            // Gone or unreadable for now: say so and keep what the page shows.
            if (generation != generation_) return;
            following_ = storedDuringRead_ = false;
            followNote_->setText(tr("Cannot read %1 now: %2").arg(path_, error));
            followNote_->show();
        });
}

// A run stored while a read is in flight may have missed it: read again once that read ends,
// not at the next follow tick, so the page has every run soon after the sweep's last.
void ResultsPage::runStored() {
    if (following_) storedDuringRead_ = true;
    followFile();
}

void ResultsPage::addExperiment(const QString& other) {
    auto refuse = [&](const QString& why) { emit experimentAdded(other, why); };
    if (path_.isEmpty() || loading_) return refuse(tr("Open an experiment first; then add the series of others to it."));
    if (sameExperiment(other.toStdString(), path_.toStdString()))
        return refuse(tr("%1 is the experiment shown: its series are here already.").arg(other));
    if (adding_) return refuse(tr("Still reading the series of another experiment; add %1 when they are shown.").arg(other));
    adding_ = true;
    CombinedRuns probe;
    probe.order = seriesOrder_;  // a name taken by a series shown is refused
    size_t known = seriesOrder_.size();
    store_->addExperimentRuns(
        std::move(probe), other,
        [this, other, known, generation = generation_](CombinedRuns more) {
            if (generation != generation_) return;
            adding_ = false;
            std::vector<std::string> labels(more.order.begin() + static_cast<std::ptrdiff_t>(known), more.order.end());
            for (const auto& label : labels)
                if (knowsSeries(label))  // a series of that name arrived meanwhile
                    return emit experimentAdded(other, tr("%1: its series '%2' is shown already").arg(other, QString::fromStdString(label)));
            for (const auto& label : labels) {
                seriesOrder_.push_back(label);
                added_.order.push_back(label);
            }
            for (auto& r : more.runs) added_.runs.push_back(std::move(r));
            for (auto& p : more.provenance) added_.provenance.push_back(std::move(p));
            addedFiles_ << other;
            offerSeries();
            offerMetricsPresent();
            refresh();
            emit experimentAdded(other, {});
        },
        [this, other, generation = generation_](const QString& error) {
            if (generation != generation_) return;
            adding_ = false;
            emit experimentAdded(other, error);
        });
}

namespace {
// A run's load hosts as its record keeps them (docs/load-hosts.md): each host's share, tps, CPU,
// network and clock, a client-bound one marked. "" for a run without load hosts; a value the
// host did not measure is left out, never shown as 0.
QString loadHostsText(const nlohmann::json& detail) {
    if (!detail.contains("load_hosts") || !detail["load_hosts"].is_array()) return {};
    QStringList lines;
    for (const auto& h : detail["load_hosts"]) {
        auto number = [&](const char* key, const char* format) {
            return h.contains(key) && h[key].is_number() ? QString::asprintf(format, h[key].get<double>()) : QString();
        };
        QStringList parts{QObject::tr("%1 clients").arg(h.value("clients", 0)), number("tps", "%.1f tps")};
        if (QString cpu = number("cpu_busy_pct", "CPU busy %.0f%%"); !cpu.isEmpty()) parts << cpu;
        if (QString rx = number("network_rx_MB_s", "%.2f"), tx = number("network_tx_MB_s", "%.2f"); !rx.isEmpty())
            parts << QObject::tr("network in %1 out %2 MB/s").arg(rx, tx);
        if (QString clock = number("clock_offset_ms", "clock %+.1f ms"); !clock.isEmpty()) parts << clock;
        if (h.value("client_bound", false)) parts << QObject::tr("CLIENT-BOUND: this host limits the result");
        lines << QStringLiteral("%1: %2").arg(QString::fromStdString(h.value("host", std::string("?"))), parts.join(QStringLiteral(", ")));
    }
    return QObject::tr("Load hosts:\n%1").arg(lines.join(QLatin1Char('\n')));
}
} // namespace

void ResultsPage::showRunDetail(int row) {
    if (path_.isEmpty() || row < 0 || row >= runs_->rowCount()) return;
    const RunRecord& run = runs_->run(row);
    detailRun_ = run.id;
    detail_->setTitle(tr("Run %1: %2, %3 clients, round %4").arg(run.id).arg(QString::fromStdString(run.series)).arg(run.clients).arg(run.repetition));
    QString hosts = loadHostsText(run.detail);
    if (auto machine = metricsMachineFromJson(run.detail))  // whose CPU and disks the charts below show
        hosts = tr("CPU, disk and pressure figures of %1").arg(QString::fromStdString(machine->describe())) +
                (hosts.isEmpty() ? QString() : QStringLiteral("\n") + hosts);
    runHosts_->setText(hosts);
    runHosts_->setVisible(!hosts.isEmpty());
    store_->readSamples(
        path_, run.id,
        [this, id = run.id, generation = generation_](std::vector<StoredSample> samples) {
            if (generation != generation_ || id != detailRun_) return;  // another run was selected meanwhile
            Timeline t;
            double span = 0;  // the run's own length on the x axis (issue 61.14: 0-10 s for a 3 s run)
            for (const auto& s : samples) {
                span = std::max(span, s.endS);
                LoadSample ls;
                ls.endS = s.endS;
                ls.tps = s.tps;
                ls.latency.p95Ms = s.latP95Ms;
                t.add(ls);
            }
            detail_->setSpan(std::ceil(span));
            detail_->refresh(t, 600);
            emit runShown(id);
        },
        [this, id = run.id, generation = generation_](const QString& error) {
            if (generation != generation_ || id != detailRun_) return;
            detail_->setTitle(tr("Run %1: cannot read its samples: %2").arg(id).arg(error));
        });
}

// A write failed (the file went away, or a sweep of another ScaleLab holds it): say so, and
// show what the file holds.
void ResultsPage::writeFailed(const QString& what, const QString& error) {
    warnPlain(this, what, error);
    store_->readExperiment(
        path_, [this, generation = generation_](ExperimentSnapshot snapshot) {
            if (generation == generation_) showRuns(std::move(snapshot.runs));
        },
        [](const QString&) {});
}

void ResultsPage::showRuns(std::vector<RunRecord> runs) {
    runs_->syncRuns(std::move(runs));
    refresh();
}

} // namespace scalelab::ui
