#pragma once
// Setting up a sweep: target, workload, client counts, threads, duration, repetitions, order,
// and the series. Every change is validated by the same plan parser the CLI uses; a problem is
// marked at its field with the reason, and Start stays disabled until the plan is valid.
#include "sweep/SweepPlan.h"
#include "topo/Topology.h"

#include <QWidget>

#include <map>
#include <optional>
#include <set>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace scalelab::ui {

class ExamplesBox;

class SetupPage : public QWidget {
    Q_OBJECT
public:
    explicit SetupPage(const TopologyInfo& machine, QWidget* parent = nullptr);

    std::optional<SweepPlan> plan() const { return plan_; }
    QStringList problems() const { return problems_; }
    // The form's plan, over the plan it was last given: members the form has no field for
    // (a rate, -D variables, a seed, a series' own data directory ...) are kept, run and saved.
    nlohmann::json planJson() const;
    bool setPlanJson(const nlohmann::json& j);  // restores fields from a plan (last settings)
    // The JSON paths of those members ("$.rate", "$.workload.define"): the page lists them.
    QStringList keptMembers() const;
    QLabel* keptLabel() const { return kept_; }
    // The example plans sized to this machine, above the form; hidden until the window shows it
    // (while the machine has no experiment yet). A click puts its plan in the form.
    ExamplesBox* examplesBox() const { return examples_; }

    // The Script menu's items: tpcb-like, simple-update, select-only, script file, replay file, then
    // TPROC-C (workload.kind "tprocc", sized by the Warehouses field).
    static constexpr int kTproccItem = 5;

    // Field access for tests and the main window.
    QLineEdit* clientsEdit() const { return clients_; }
    QDoubleSpinBox* durationSpin() const { return duration_; }
    QTableWidget* seriesTable() const { return series_; }
    QPushButton* startButton() const { return start_; }
    // The estimate and Start: not in the page's own layout; the window shows it under the page's
    // scroll area, so that it never scrolls away.
    QWidget* actionBar() const { return actionBar_; }
    QLineEdit* dataDirEdit() const { return dataDir_; }
    QSpinBox* repetitionsSpin() const { return repetitions_; }
    QDoubleSpinBox* warmupSpin() const { return warmup_; }
    QLineEdit* scalesEdit() const { return scales_; }  // "10" or a list "10, 100": data.scale
    QLineEdit* ratesEdit() const { return rates_; }    // empty: unthrottled; "500, 1000": workload.rate
    QComboBox* builtinCombo() const { return builtin_; }  // pgbench's three, script file, replay file, TPROC-C
    QSpinBox* warehousesSpin() const { return warehouses_; }  // TPROC-C's data.warehouses
    QComboBox* lengthCombo() const { return length_; }          // 0: duration, 1: transactions per client
    QSpinBox* transactionsSpin() const { return transactions_; }
    QLineEdit* scriptFileEdit() const { return scriptFile_; }
    QLineEdit* conninfoEdit() const { return conninfo_; }
    QLineEdit* definesEdit() const { return defines_; }  // "name=value, ...": workload.define
    QLineEdit* seedEdit() const { return seed_; }        // empty: a new seed per sweep
    QLineEdit* loadHostsEdit() const { return loadHosts_; }  // "bench@c1, bench@c2": load_hosts; empty: here
    QLineEdit* metricsHostEdit() const { return metricsHost_; }  // target.metrics_host; empty: none
    QLineEdit* serverHostEdit() const { return serverHost_; }    // target.host; empty: this machine
    QRadioButton* remoteRadio() const { return remote_; }
    QRadioButton* embeddedRadio() const { return embedded_; }
    QLabel* problemsLabel() const { return problemsLabel_; }
    QLabel* estimateLabel() const { return estimate_; }
    QPushButton* testConnectionButton() const { return testConnection_; }
    QLabel* connectionResult() const { return connectionResult_; }  // the test's answer
    void addSeries(const QString& label, const QString& placement, const QString& settings = {});

signals:
    void startRequested(const scalelab::SweepPlan& plan);

private slots:
    void markSeriesRow(int row);  // its cells in red; -1: none any more
    void revalidate();

private:
    QWidget* fieldFor(const QString& path) const;
    nlohmann::json planFromForm() const;  // only what the form's fields say
    QStringList updatePuColumn();  // the problems of placements this machine cannot give

    TopologyInfo machine_;
    ExamplesBox* examples_;
    QRadioButton *embedded_, *remote_;
    QLineEdit *dataDir_, *serverHost_, *conninfo_, *metricsHost_, *clients_, *scriptFile_, *defines_, *seed_, *loadHosts_, *scales_, *rates_;
    QComboBox *builtin_, *mode_, *threadsRule_, *order_, *length_;
    QSpinBox *threadsFixed_, *repetitions_, *transactions_, *warehouses_;
    QCheckBox* shuffle_;
    QCheckBox* waits_;  // $.diagnostics.waits
    QCheckBox* cpuProfile_;  // $.diagnostics.cpu_profile
    QDoubleSpinBox *duration_, *warmup_;
    QTableWidget* series_;
    QLabel *estimate_, *problemsLabel_, *connectionResult_, *seriesNote_, *kept_;
    nlohmann::json loaded_ = nlohmann::json::object();  // the plan last given, as given
    QPushButton *start_, *testConnection_;
    QWidget* actionBar_ = nullptr;  // not in the page's layout: the window lays it out (actionBar())
    std::optional<SweepPlan> plan_;
    // Each PostgreSQL build's setting names, asked for once (postgres --describe-config) to check
    // the series' server settings as they are typed (issue 61.2); none when the programs were
    // not found (Start's own check says so then).
    std::map<std::string, std::set<std::string>> settingNames_;
    bool settingNamesUnavailable_ = false;
    QStringList problems_;
    QList<QWidget*> marked_;
    QList<int> markedRows_;  // series rows shown in red (a problem names them)
};

} // namespace scalelab::ui
