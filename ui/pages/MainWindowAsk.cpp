// The window's questions before it writes into a file that holds something already: a sweep
// into an existing experiment, an import of content the experiment has, the series of pgbench
// outputs. In the window's own words and choices (issue 32.7), never a command line option:
// the window has buttons, not --resume and --again.
#include "pages/MainWindow.h"
#include "pages/StatusText.h"

#include "bridge/ErrorText.h"
#include "bridge/ExperimentBridge.h"
#include "pages/PlainText.h"
#include "pages/SetupPage.h"
#include "store/ExperimentStore.h"
#include "store/Import.h"
#include "sweep/SweepPlan.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>

#include <optional>

namespace scalelab::ui {
namespace {

// What an existing experiment file holds, read off the GUI thread.
struct ExistingExperiment {
    std::optional<nlohmann::json> plan;
    size_t runs = 0;
};

const QString kExperimentFilter = QStringLiteral("ScaleLab experiments (*.slab)");

// experiment-2.slab, experiment-3.slab... beside `path`: the first that does not exist.
QString freeNameBeside(const QString& path) {
    QFileInfo info(path);
    QString base = info.completeBaseName(), suffix = info.suffix().isEmpty() ? QStringLiteral("slab") : info.suffix();
    for (int i = 2;; ++i) {
        QString candidate = info.dir().filePath(QStringLiteral("%1-%2.%3").arg(base).arg(i).arg(suffix));
        if (!QFileInfo::exists(candidate)) return candidate;
    }
}

QString runsMeasured(int n) {
    return n == 1 ? QCoreApplication::translate("MainWindow", "1 run measured")
                  : QCoreApplication::translate("MainWindow", "%1 runs measured").arg(n);
}

} // namespace

void MainWindow::chooseFileAndStart() {
    // The window asks its own question about an existing file (below), not the dialog's
    // "replace?": a file with measured runs is never replaced.
    QString path = QFileDialog::getSaveFileName(this, tr("Experiment file"), QStringLiteral("experiment.slab"),
                                                kExperimentFilter, nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) startSweepAsking(path);
}

void MainWindow::startSweepAsking(const QString& path) {
    auto plan = setup_->plan();
    if (!plan) return;
    QFileInfo info(path);
    // A results store location: the runner itself refuses a sweep of another plan there.
    if (isStoreLocation(path.toStdString()) || !info.exists() || info.size() == 0) return startSweepInto(path);
    std::function<ExistingExperiment()> read = [file = path.toStdString()] {
        auto store = ExperimentStore::open(file, true);
        ExistingExperiment e;
        if (auto stored = store->plan()) e.plan = stored->first;
        e.runs = store->runs().size();
        return e;
    };
    files_->call<ExistingExperiment>(
        std::move(read),
        [this, path, planJson = plan->json](ExistingExperiment e) {
            QString name = QFileInfo(path).fileName();
            int runs = static_cast<int>(e.runs);
            QMessageBox ask(QMessageBox::Question, tr("Start sweep"), QString(), QMessageBox::Cancel, this);
            QPushButton *resume = nullptr, *resumeOwn = nullptr;
            if (e.plan && *e.plan == planJson) {
                ask.setText(tr("%1 holds this plan's sweep already (%2).").arg(name, runsMeasured(runs)));
                ask.setInformativeText(tr("Resume it: the runs still missing are made, and the ones measured are kept. "
                                          "Or start this plan again in a new file."));
                resume = ask.addButton(tr("Resume the sweep"), QMessageBox::AcceptRole);
            } else if (e.plan) {
                ask.setText(tr("%1 holds the sweep of another plan (%2).").arg(name, runsMeasured(runs)));
                ask.setInformativeText(tr("A file holds one plan. Resume that sweep with its own plan (the Setup page "
                                          "then shows it), or start this plan in a new file."));
                resumeOwn = ask.addButton(tr("Resume its plan"), QMessageBox::AcceptRole);
            } else {
                ask.setText(tr("%1 holds imported runs (%2), not a sweep.").arg(name).arg(runs));
                ask.setInformativeText(tr("A sweep goes into a file of its own: start it in a new file."));
            }
            ask.setTextFormat(Qt::PlainText);  // a file name is the user's text (issue 31.3)
            QPushButton* newFile = ask.addButton(tr("New file..."), QMessageBox::AcceptRole);
            ask.setDefaultButton(resume ? resume : resumeOwn ? resumeOwn : newFile);
            ask.exec();
            if (ask.clickedButton() == resume) {
                startSweepInto(path);
            } else if (ask.clickedButton() == resumeOwn) {
                resumeExperiment(path, [this](const QString& error) {
                    if (!error.isEmpty()) warnPlain(this, tr("Resume"), error);
                });
            } else if (ask.clickedButton() == newFile) {
                QString other = QFileDialog::getSaveFileName(this, tr("New experiment file"), freeNameBeside(path),
                                                             kExperimentFilter, nullptr, QFileDialog::DontConfirmOverwrite);
                if (!other.isEmpty()) startSweepAsking(other);
            }
        },
        [this, path](const QString& error) {
            warnPlain(this, tr("Start sweep"),
                      tr("%1 exists and is not an experiment a sweep can continue: %2\n\nChoose another file name.")
                          .arg(path, error));
        });
}

QString MainWindow::suggestedSeriesName(const QStringList& files) {
    if (files.isEmpty()) return {};
    QString common = QFileInfo(files.first()).completeBaseName();
    for (const auto& f : files) {
        QString name = QFileInfo(f).completeBaseName();
        int n = 0;
        while (n < common.size() && n < name.size() && common[n] == name[n]) ++n;
        common.truncate(n);
    }
    // "smt-on-1", "smt-on-2": "smt-on-", then without the separator and the run's number.
    while (!common.isEmpty() && (common.back().isDigit() || QStringLiteral("-_ .").contains(common.back()))) common.chop(1);
    return common.isEmpty() ? QFileInfo(files.first()).completeBaseName() : common;
}

void MainWindow::importFiles(const QStringList& files) {
    if (files.isEmpty()) return;
    // A new experiment file by default; adding to the open one is a choice, never implied.
    bool append = false;
    if (!path_.isEmpty()) {
        QMessageBox ask(QMessageBox::Question, tr("Import"),
                        tr("Import %n file(s) into a new experiment file, or add the runs to %1?", nullptr,
                           static_cast<int>(files.size()))
                            .arg(QFileInfo(path_).fileName()),
                        QMessageBox::Cancel, this);
        ask.setTextFormat(Qt::PlainText);
        QPushButton* newFile = ask.addButton(tr("New experiment file..."), QMessageBox::AcceptRole);
        QPushButton* addTo = ask.addButton(tr("Add to %1").arg(QFileInfo(path_).fileName()), QMessageBox::AcceptRole);
        ask.setDefaultButton(newFile);
        ask.exec();
        if (ask.clickedButton() == addTo) append = true;
        else if (ask.clickedButton() != newFile) return;
    }
    // pgbench outputs say nothing of what was measured: the user names their series, as
    // `import --series` (issue 32.11: they became a series named after the first file).
    QStringList outputs;
    for (const auto& f : files)
        if (!f.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive)) outputs << f;
    QString series;
    if (!outputs.isEmpty()) {
        bool ok = false;
        series = QInputDialog::getText(this, tr("Import"),
                                       tr("Series of the %n pgbench output(s), for example \"SMT on\" (each client "
                                          "count becomes a point of it; runs CSV files name their own series):",
                                          nullptr, static_cast<int>(outputs.size())),
                                       QLineEdit::Normal, suggestedSeriesName(outputs), &ok)
                     .trimmed();
        if (!ok) return;
        if (series.isEmpty()) return warnPlain(this, tr("Import"), tr("A series needs a name: nothing was imported."));
    }
    QString target = path_;
    if (!append) {
        target = QFileDialog::getSaveFileName(this, tr("New experiment file for the imported runs"),
                                              QStringLiteral("imported.slab"), kExperimentFilter);
        if (target.isEmpty()) return;
    }
    importAsking(files, target, append, series);
}

void MainWindow::importAsking(const QStringList& files, const QString& target, bool append, const QString& series) {
    importInto(
        files, target, append,
        [this, files, target, series](const QString& error) {
            if (error.isEmpty()) return;
            if (alreadyImported_.isEmpty()) return warnPlain(this, tr("Import"), error);
            QMessageBox ask(QMessageBox::Question, tr("Import"),
                            tr("%1 is in %2 already: the same content was imported before.")
                                .arg(QFileInfo(alreadyImported_).fileName(), QFileInfo(target).fileName()),
                            QMessageBox::Cancel, this);
            ask.setTextFormat(Qt::PlainText);
            ask.setInformativeText(tr("Importing it again counts its runs twice, which narrows every interval as if "
                                      "they had been measured twice. Import it again only if it holds new "
                                      "measurements."));
            QPushButton* again = ask.addButton(tr("Import again"), QMessageBox::AcceptRole);
            ask.setDefaultButton(QMessageBox::Cancel);
            ask.exec();
            if (ask.clickedButton() != again) return;
            importInto(files, target, true, [this](const QString& e) {
                if (!e.isEmpty()) warnPlain(this, tr("Import"), e);
            }, {series, true});
        },
        {series, false});
}

void MainWindow::importInto(const QStringList& files, const QString& target, bool append, Answer then, ImportChoice choice) {
    // pgbench outputs go into the series chosen (by default one named after the first file);
    // a runs CSV names its own.
    QString series = choice.series;
    bool needsSeries = false;
    for (const auto& f : files) needsSeries = needsSeries || !f.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive);
    if (!needsSeries) series.clear();
    else if (series.isEmpty()) series = QFileInfo(files.first()).completeBaseName();
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.toStdString());
    alreadyImported_.clear();
    // The count, or -1 and the file the experiment holds already.
    std::function<std::pair<int, std::string>()> work = [paths, out = target.toStdString(), name = series.toStdString(),
                                                         append, again = choice.again]() -> std::pair<int, std::string> {
        try {
            return {importIntoFile(out, paths, name, {}, append, again), {}};
        } catch (const AlreadyImported& e) {
            return {-1, e.file};
        }
    };
    files_->call<std::pair<int, std::string>>(
        std::move(work),
        [this, target, series, then](std::pair<int, std::string> result) {
            if (result.first < 0) {
                alreadyImported_ = QString::fromStdString(result.second);
                return answer(then, tr("%1 is in %2 already (the same content was imported before); nothing was "
                                       "imported. Import it again only if it holds new measurements.")
                                        .arg(QFileInfo(alreadyImported_).fileName(), QFileInfo(target).fileName()));
            }
            openExperiment(target);
            statusLabel_->say(tr("Imported %1 runs%2").arg(result.first).arg(series.isEmpty() ? QString() : tr(" as series %1").arg(series)));
            answer(then, {});
        },
        [this, then](const QString& error) { answer(then, error); });
}

} // namespace scalelab::ui
