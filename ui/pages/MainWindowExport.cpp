// The window's exports: the chart shown (PNG, SVG), the tables as CSV, the report as text or
// Markdown on the clipboard, and the HTML report. Apart from MainWindow.cpp, which wires the
// window (issue 38: one file for the wiring, one for what leaves the window).
#include "pages/MainWindow.h"
#include "pages/PlainText.h"
#include "bridge/ErrorText.h"

#include "bridge/ExperimentBridge.h"
#include "charts/BoxPlotChartView.h"
#include "charts/ChartExport.h"
#include "charts/DistributionChartView.h"
#include "charts/LatencyThroughputChartView.h"
#include "charts/ReportExport.h"
#include "charts/ScalingChartView.h"
#include "pages/ComparisonPanel.h"
#include "pages/ResultsPage.h"
#include "pages/StatusText.h"
#include "report/Export.h"
#include "report/ReportCsv.h"
#include "report/ReportText.h"
#include "store/ExperimentOverview.h"

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QTabWidget>

namespace scalelab::ui {

void MainWindow::exportChart(const QString& path, int scale) {
    try {
        QSize size(1200, 800);
        // The chart on the Results page's visible chart tab: the scaling curves, the ratio (when
        // something is compared), the latency distribution, the rounds' box plots or latency vs tps.
        QChart* shown = results_->chart()->chart();
        QWidget* tab = results_->chartTabs()->currentWidget();
        if (tab == results_->comparison()->ratioView() && !results_->comparison()->ratioChart()->isHidden())
            shown = results_->comparison()->ratioChart()->chart();
        else if (tab && tab->isAncestorOf(results_->distributionChart()))
            shown = results_->distributionChart()->chart();
        else if (tab && tab->isAncestorOf(results_->roundsChart()))
            shown = results_->roundsChart()->chart();
        else if (tab && tab->isAncestorOf(results_->throughputChart()))
            shown = results_->throughputChart()->chart();
        ExportFontsScope fonts(shown);  // the CLI's text (ReportExport.cpp), the screen's again after
        if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) exportChartSvg(shown, path, size, windowTitle());
        else exportChartPng(shown, path, size, scale);
        statusLabel_->say(tr("Wrote %1").arg(path));
    } catch (const std::exception& e) {
        warnPlain(this, tr("Export chart"), errorText(e));
    }
}

// The exports read the experiment files (and write theirs) off the GUI thread; the HTML
// report's charts are drawn on it, from what was read.
void MainWindow::exportCsvTo(const QString& dir, Answer then) {
    // The tables the Results page shows, for the view on screen (what `report --csv` writes),
    // with the series added from other experiments: computed here from the runs in memory.
    StatsReport report;
    try {
        report = reportFor(results_->allRuns(), results_->seriesOrder(), results_->view(), results_->choice(), path_.toStdString());
    } catch (const std::exception& e) {
        return answer(then, errorText(e));
    }
    std::function<std::vector<std::string>()> work = [file = path_.toStdString(), out = dir.toStdString(), report] {
        auto written = exportCsv(*ExperimentStore::open(file, true), out);
        for (auto& f : writeReportCsv(report, out, false)) written.push_back(f);
        return written;
    };
    files_->call<std::vector<std::string>>(
        std::move(work),
        [this, dir, then](std::vector<std::string> written) {
            QStringList names;
            for (const auto& f : written) names << QFileInfo(QString::fromStdString(f)).fileName();
            statusLabel_->say(tr("Wrote %1 to %2").arg(names.join(QStringLiteral(", ")), dir));
            answer(then, {});
        },
        [this, then](const QString& error) { answer(then, error); });
}

void MainWindow::copyReport(bool markdown) {
    try {
        StatsReport report =
            reportFor(results_->allRuns(), results_->seriesOrder(), results_->view(), results_->choice(), path_.toStdString());
        std::vector<std::string> summary = experimentSummary(results_->allProvenance(), results_->allRuns());
        std::string text;
        if (markdown) {
            text = reportMarkdown(report, summary);
        } else {
            for (const auto& line : summary) text += line + "\n";
            text += (summary.empty() ? "" : "\n") + reportText(report);
        }
        QGuiApplication::clipboard()->setText(QString::fromStdString(text));
        statusLabel_->say(markdown ? tr("Copied the report as Markdown") : tr("Copied the report as text"));
    } catch (const std::exception& e) {
        warnPlain(this, tr("Copy report"), errorText(e));
    }
}

void MainWindow::exportHtmlTo(const QString& path, Answer then) {
    std::vector<std::string> others;
    for (const QString& f : results_->addedExperiments()) others.push_back(f.toStdString());
    std::function<HtmlReportFiles()> read = [file = path_.toStdString(), others] { return readHtmlReportFiles(file, others); };
    files_->call<HtmlReportFiles>(
        std::move(read),
        [this, path, then, view = results_->view(), choice = results_->choice()](HtmlReportFiles files) {
            try {
                writeHtmlReport(files, view, choice, path.toStdString());
            } catch (const std::exception& e) {
                return answer(then, errorText(e));
            }
            statusLabel_->say(tr("Wrote %1").arg(path));
            answer(then, {});
        },
        [this, then](const QString& error) { answer(then, error); });
}

} // namespace scalelab::ui
