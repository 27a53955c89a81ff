// The main window's menus: File (experiments, plans, series of other files, import, exports) and
#include "pages/PlainText.h"
// Help. Each action calls one MainWindow function that tests can call without a dialog.
#include "bridge/ErrorText.h"
#include "pages/MainWindow.h"
#include "pages/StatusText.h"

#include "AboutInfo.h"
#include "bridge/SweepController.h"
#include "pages/OverviewPage.h"
#include "pages/ResultsPage.h"
#include "pages/SetupPage.h"
#include "pages/StoreDialog.h"
#include "bridge/ExperimentBridge.h"
#include "server/PgBinaries.h"
#include "store/CopyExperiment.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QTableWidget>

namespace scalelab::ui {

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New experiment"), QKeySequence::New, this, [this] {
        if (controller_->running()) return;
        path_.clear();
        results_->clear();
        overview_->clear();
        removeSeries_->setEnabled(false);
        showPage(setup_);
        updateTitle();
    });
    file->addAction(tr("&Open..."), QKeySequence::Open, this, [this] {
        QString p = QFileDialog::getOpenFileName(this, tr("Open experiment"), {}, tr("ScaleLab experiments (*.slab)"));
        if (!p.isEmpty()) openExperiment(p);
    });
    file->addAction(tr("Open from results &store..."), this, [this] { showStoreDialog(); });
    recent_ = file->addMenu(tr("Open &recent"));
    file->addAction(tr("&Resume experiment..."), this, [this] {
        QString p = QFileDialog::getOpenFileName(this, tr("Resume the sweep of an experiment"), {},
                                                 tr("ScaleLab experiments (*.slab)"));
        if (p.isEmpty()) return;
        resumeExperiment(p, [this](const QString& error) {
            if (!error.isEmpty()) warnPlain(this, tr("Resume"), error);
        });
    });
    file->addSeparator();
    file->addAction(tr("Open &plan..."), this, [this] {
        QString p = QFileDialog::getOpenFileName(this, tr("Open a sweep plan"), {}, tr("Sweep plans (*.json)"));
        if (p.isEmpty()) return;
        if (QString error = loadPlanFrom(p); !error.isEmpty()) warnPlain(this, tr("Open plan"), error);
    });
    file->addAction(tr("Save p&lan as..."), this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Save the sweep plan"), QStringLiteral("plan.json"),
                                                 tr("Sweep plans (*.json)"));
        if (p.isEmpty()) return;
        if (QString error = savePlanTo(p); !error.isEmpty()) warnPlain(this, tr("Save plan"), error);
        else statusLabel_->say(tr("Wrote %1; `scalelab sweep %1 -o EXP.slab` runs it without the window").arg(p));
    });
    file->addSeparator();
    file->addAction(tr("Save &as..."), QKeySequence::SaveAs, this, [this] {
        if (path_.isEmpty()) return;
        QString p = QFileDialog::getSaveFileName(this, tr("Save experiment as"), {}, tr("ScaleLab experiments (*.slab)"));
        if (p.isEmpty()) return;
        saveExperimentAs(p, [this, p](const QString& error) {
            if (!error.isEmpty()) warnPlain(this, tr("Save as"), error);
        });
    });
    file->addSeparator();
    file->addAction(tr("Add series from another e&xperiment..."), this, [this] {
        QString p = QFileDialog::getOpenFileName(this, tr("Add the series of another experiment"), {},
                                                 tr("ScaleLab experiments (*.slab)"));
        if (p.isEmpty()) return;
        addingFromMenu_ = p;
        results_->addExperiment(p);  // read off the GUI thread; experimentAdded() says how it went
    });
    connect(results_, &ResultsPage::experimentAdded, this, [this](const QString& p, const QString& error) {
        if (p != addingFromMenu_) return;  // asked for by a test or a script: it has the answer
        addingFromMenu_.clear();
        if (!error.isEmpty())
            warnPlain(this, tr("Add series"), error);
        else {
            statusLabel_->say(tr("Series of %1 added (named \"LABEL [%2]\"); nothing is written to either file")
                                      .arg(p, QString::fromStdString(experimentName(p.toStdString()))));
            showPage(results_);
        }
        removeSeries_->setEnabled(!results_->addedExperiments().isEmpty());
    });
    removeSeries_ = file->addAction(tr("Remove added series"), this, [this] {
        results_->removeAddedExperiments();
        removeSeries_->setEnabled(false);
    });
    removeSeries_->setEnabled(false);
    file->addSeparator();
    file->addAction(tr("&Import pgbench output or CSV..."), this, [this] {
        importFiles(QFileDialog::getOpenFileNames(this, tr("Import"), {}, tr("pgbench output or runs CSV (*)")));
    });
    exportActions_ << file->addAction(tr("Export chart as PNG..."), this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("scaling.png"), QStringLiteral("PNG (*.png)"));
        if (!p.isEmpty()) exportChart(p, 1);
    });
    exportActions_ << file->addAction(tr("Export chart as PNG (2x)..."), this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("scaling@2x.png"), QStringLiteral("PNG (*.png)"));
        if (!p.isEmpty()) exportChart(p, 2);
    });
    exportActions_ << file->addAction(tr("Export chart as SVG..."), this, [this] {
        QString p = QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("scaling.svg"), QStringLiteral("SVG (*.svg)"));
        if (!p.isEmpty()) exportChart(p, 1);
    });
    exportActions_ << file->addAction(tr("Export data as CSV..."), this, [this] {
        if (path_.isEmpty()) return;
        QString dir = QFileDialog::getExistingDirectory(this, tr("Directory for the CSV files"));
        if (dir.isEmpty()) return;
        exportCsvTo(dir, [this](const QString& error) {
            if (!error.isEmpty()) warnPlain(this, tr("Export"), error);
        });
    });
    exportActions_ << file->addAction(tr("Export &HTML report..."), this, [this] {
        if (path_.isEmpty()) return;
        QString p = QFileDialog::getSaveFileName(this, tr("HTML report"), QFileInfo(QString::fromStdString(experimentName(path_.toStdString()))).completeBaseName() + QStringLiteral(".html"),
                                                 QStringLiteral("HTML (*.html)"));
        if (p.isEmpty()) return;
        exportHtmlTo(p, [this](const QString& error) {
            if (!error.isEmpty()) warnPlain(this, tr("Export HTML report"), error);
        });
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    // Results to paste into an issue (Markdown) or a mailing list post (fixed-width text).
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    exportActions_ << edit->addAction(tr("Copy report as &Markdown"), this, [this] { copyReport(true); });
    exportActions_ << edit->addAction(tr("Copy report as &text"), this, [this] { copyReport(false); });
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("ScaleLab &help"), QKeySequence::HelpContents, this, &MainWindow::showHelp);
    help->addAction(tr("&About ScaleLab"), this, [this] {
        QString server;
        try {
            server = QString::fromStdString(findPgBinaries().describe());
        } catch (const std::exception& e) {
            server = errorText(e).section(QLatin1Char('\n'), 0, 0);
        }
        QMessageBox::about(this, tr("About ScaleLab"),
                           tr("<h3>ScaleLab</h3><p>Database scaling experiments: load, sweeps, CPU placement, error bars.</p>"
                              "<pre>%1</pre><p>GPL-3.0-or-later</p>")
                               .arg(aboutText(server).toHtmlEscaped()));
    });
}

StoreDialog* MainWindow::showStoreDialog() {
    if (!storeDialog_) {
        storeDialog_ = new StoreDialog(this);
        connect(storeDialog_, &StoreDialog::openRequested, this, &MainWindow::openExperiment);
        // Compare across experiments: the series of the one chosen join the one shown.
        connect(storeDialog_, &StoreDialog::addRequested, this, [this](const QString& location) {
            addingFromMenu_ = location;
            results_->addExperiment(location);
        });
    }
    storeDialog_->show();
    storeDialog_->raise();
    if (!storeDialog_->connection()->text().isEmpty() && storeDialog_->table()->rowCount() == 0)
        storeDialog_->list(storeDialog_->connection()->text());
    return storeDialog_;
}

void MainWindow::saveExperimentAs(const QString& path, Answer then) {
    if (path_.isEmpty()) return answer(then, tr("No experiment is open"));
    if (sameExperiment(path.toStdString(), path_.toStdString()))
        return answer(then, tr("%1 is the experiment itself; choose another file").arg(path));
    // A copy through ScaleLab, not of the bytes: a file being written keeps its last runs in
    // its -wal, and an experiment in a store has no file at all.
    std::function<CopyCount()> work = [from = path_.toStdString(), to = path.toStdString()] {
        if (!isStoreLocation(to)) ExperimentStore::remove(to);  // the dialog asked before replacing it
        return copyExperiment(from, to);
    };
    files_->call<CopyCount>(
        std::move(work),
        [this, path, then](CopyCount) {
            openExperiment(path);
            answer(then, {});
        },
        [this, then](const QString& error) { answer(then, error); });
}

} // namespace scalelab::ui
