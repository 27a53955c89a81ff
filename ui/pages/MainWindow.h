#pragma once
// The main window: Setup, Live, Results and Overview pages; File menu (new, open, recent, save as,
// import, export chart and data); drag-and-drop import; the sweep runs through SweepController
// off the GUI thread. Window layout and the last plan persist in QSettings.
#include "sweep/SweepPlan.h"
#include "topo/Topology.h"

#include <QMainWindow>

#include <functional>
#include <optional>

class QDialog;
class QLabel;
class QMenu;
class QScrollArea;
class QTabWidget;

namespace scalelab::ui {

class ExperimentBridge;
class LivePage;
class OverviewPage;
class ResultsPage;
class SetupPage;
class StatusText;
class StoreDialog;
class SweepController;

// What File > Import decided beyond the files: the series of pgbench outputs (empty: named
// after the first file) and whether content imported before is imported again.
struct ImportChoice {
    QString series;
    bool again = false;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    SetupPage* setupPage() const { return setup_; }
    LivePage* livePage() const { return live_; }
    ResultsPage* resultsPage() const { return results_; }
    OverviewPage* overviewPage() const { return overview_; }
    // Pages sit in scroll areas (the tabs hold those): this shows the tab of `page`.
    void showPage(QWidget* page);
    // Shows the window at `asked` (gui --size), else at the size it last had or 1400x900, no
    // larger than the screen it opens on, and placed on it (issue 61.5: it opened at 1400x900 on
    // 1366x768 and 1024x700 screens, Start and the status bar off screen).
    void showAtFirstSize(std::optional<QSize> asked = std::nullopt);
    SweepController* controller() const { return controller_; }
    QTabWidget* tabs() const { return tabs_; }
    // The scroll area of the page in tab `tab` (Setup's sits above its action bar).
    QScrollArea* pageArea(int tab) const;
    const QString& experimentPath() const { return path_; }
    QString statusMessage() const;  // the status bar's message, whole
    const QList<QAction*>& exportActions() const { return exportActions_; }

    // No dialogs: for tests and the command line. Reads the file off the GUI thread; emits
    // experimentOpened() when the pages show it, or experimentOpenFailed() (and says why).
    void openExperiment(const QString& path);
    void startSweepInto(const QString& path);
    // Continues the sweep in `path` with the plan stored there; `then` says "" when it started,
    // else why not.
    void resumeExperiment(const QString& path, std::function<void(const QString& error)> then = {});
    // The Setup page's plan as a JSON file `scalelab sweep` reads, and back. "" or why not.
    QString savePlanTo(const QString& path) const;
    QString loadPlanFrom(const QString& path);
    // The Results page's visible chart (scaling, ratio or latency) as .png (scale 1 or 2) or .svg.
    void exportChart(const QString& path, int scale);
    // How a task of the window's that reads or writes files off the GUI thread ended: "" when
    // done, else why not. Called later, on the GUI thread.
    using Answer = std::function<void(const QString& error)>;
    // As the Results page shows it now.
    void exportCsvTo(const QString& dir, Answer then = {});     // runs, points, samples + comparison, USL, peak
    void exportHtmlTo(const QString& path, Answer then = {});   // the self-contained HTML report
    // The Results page's tables for the view on screen, with the experiment's summary, on the
    // clipboard as `report --format markdown|text` writes them (docs/statistics.md).
    void copyReport(bool markdown);
    QDialog* showHelp();                          // Help > ScaleLab help (F1)
    StoreDialog* showStoreDialog();               // File > Open from results store
    // A copy of the experiment shown, whole (file or store to a new file), then opened.
    void saveExperimentAs(const QString& path, Answer then = {});
    // Imports pgbench outputs or runs CSVs into `target` (a new file, or the open one with
    // `append`) and opens it (nothing is created on failure). pgbench outputs go into
    // `series` (default: the first file's name); `again` imports content the experiment holds
    // already. Refused for that reason, alreadyImported() names the file until the next import.
    void importInto(const QStringList& files, const QString& target, bool append, Answer then = {}, ImportChoice choice = {});
    const QString& alreadyImported() const { return alreadyImported_; }
    // The series a set of pgbench outputs is offered: their names' common start ("smt-on-1.txt",
    // "smt-on-2.txt": "smt-on"), else the first file's name.
    static QString suggestedSeriesName(const QStringList& files);

    // With questions, as the window's buttons do (MainWindowAsk.cpp). Start into `path`: a file
    // that holds an experiment already is never replaced; the window offers to resume it (this
    // plan's sweep), to resume its own plan (another plan's), or a new file name.
    void startSweepAsking(const QString& path);
    // Into `target`; content imported there before is imported again only when the user says so.
    void importAsking(const QStringList& files, const QString& target, bool append, const QString& series);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

signals:
    void experimentOpened(const QString& path);
    void experimentOpenFailed(const QString& path, const QString& error);

private:
    void connectOpening();
    void answer(const Answer& then, const QString& error);
    void buildMenus();
    void importFiles(const QStringList& files);
    void chooseFileAndStart();  // Start sweep: a file name, then startSweepAsking
    void rememberRecent(const QString& path);
    void finishExperimentFile(bool failed);
    void startSweep(const SweepPlan& plan, const QString& path);
    // Shows what a stored plan runs besides its load (commandsOfPlan, found off the GUI thread);
    // true when it runs nothing of the kind or the user accepted it.
    bool acceptsCommands(const std::vector<std::string>& commands, const QString& path);
    void updateRecentMenu();
    void updateTitle();

    bool restoredGeometry_ = false;  // the window's last size and place were read back
    TopologyInfo machine_;
    QTabWidget* tabs_;
    SetupPage* setup_;
    LivePage* live_;
    ResultsPage* results_;
    OverviewPage* overview_;
    SweepController* controller_;
    QMenu* recent_;
    StatusText* statusLabel_;
    QString path_;
    ExperimentBridge* files_;    // imports and exports, off the GUI thread
    QString opening_;            // the experiment being read for openExperiment()
    bool openingShown_ = false;  // the Results page shows it; the Overview page's read is next
    QString addingFromMenu_;  // the file whose series File > Add series is reading
    bool closingAfterStop_ = false;
    bool sweepCreatesFile_ = false;  // the running sweep made its file (not a resume)
    int storedRuns_ = 0;             // runs the window's last sweep stored
    QList<QAction*> exportActions_;  // enabled while the chart has points
    QDialog* help_ = nullptr;
    StoreDialog* storeDialog_ = nullptr;
    QAction* removeSeries_ = nullptr;  // enabled while series of other files are shown
    QString alreadyImported_;          // the file the last import refused as imported before
};

} // namespace scalelab::ui
