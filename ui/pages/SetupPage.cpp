#include "pages/SetupPage.h"
#include "pages/PlainText.h"
#include "bridge/ErrorText.h"
#include "pages/SetupPageForm.h"
#include "pages/ExamplesBox.h"

#include "server/ConnectionCapacity.h"
#include "server/Conninfo.h"
#include "server/EmbeddedServer.h"
#include "sweep/SweepEstimate.h"
#include "sweep/SweepPreflight.h"
#include "topo/Placement.h"
#include "util/Error.h"

#include <algorithm>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QFrame>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QCoreApplication>
#include <QPalette>
#include <QPointer>
#include <QThread>
#include <QVBoxLayout>

namespace scalelab::ui {

using namespace setupform;
namespace {
// A plan's JSON path as the form shows it: "$.series[1]" is the series table's row 2.
QString forTheForm(const QString& problem) {
    // The form names its fields as their labels do, not as the plan's JSON paths (issue 32.11:
    // "$.clients: '0': ..."). Longer paths first: "$.target.conninfo" before "$.target".
    static const std::pair<const char*, const char*> kFields[] = {
        {"$.clients", "Client counts"},         {"$.duration", "Duration"},
        {"$.warmup", "Warm-up"},                {"$.repetitions", "Repetitions"},
        {"$.target.conninfo", "Connection"},    {"$.target.data_dir", "Data directory"},
        {"$.target.metrics_host", "Server's machine"}, {"$.target.host", "Server host"},
        {"$.workload.files", "Script file"},    {"$.workload.replay", "Replay file"},
        {"$.workload.mode", "Query mode"},      {"$.workload.define", "Variables (-D)"},
        {"$.workload.scale", "Scale"},          {"$.transactions", "Transactions per client"},
        {"$.workload.rate", "Offered rates"},   {"$.data.scale", "Scales"},
        {"$.data.warehouses", "Warehouses"},    {"$.workload.kind", "Script"},
        {"$.seed", "Random seed"},              {"$.threads", "Threads"},
        {"$.load_hosts", "Load hosts"},         {"$.order", "Order"}};
    for (const auto& [path, label] : kFields) {
        QString p = QString::fromLatin1(path);
        if (!problem.startsWith(p)) continue;
        QString rest = problem.mid(p.size());
        if (!rest.isEmpty() && rest[0] != QLatin1Char(':') && rest[0] != QLatin1Char('.')) continue;  // $.seedling
        if (rest.startsWith(QLatin1Char('.'))) rest[0] = QLatin1Char(' ');  // $.workload.define.1x: "Variables (-D) 1x"
        return QString::fromLatin1(label) + rest;
    }
    // An empty table is said in the table's terms, not the plan's ("expected a non-empty array").
    if (problem.startsWith(QLatin1String("$.series: expected a non-empty array")))
        return QStringLiteral("Series: the table has no series; add one with Add series");
    static const QRegularExpression row(QStringLiteral("^\\$\\.series\\[(\\d+)\\]\\.?"));
    QRegularExpressionMatch m = row.match(problem);
    if (!m.hasMatch()) return problem;
    QString rest = problem.mid(m.capturedLength());
    // The table's column names: "settings.shared_bufers: ..." is "Server settings shared_bufers: ...".
    if (rest.startsWith(QLatin1String("settings."))) rest = QStringLiteral("Server settings ") + rest.mid(9);
    return QStringLiteral("series row %1%2%3").arg(m.captured(1).toInt() + 1).arg(rest.startsWith(QLatin1Char(':')) ? QString() : QStringLiteral(" ")).arg(rest);
}

const char* kInvalidStyle = "border: 2px solid #c0392b; background: #fdecea;";

QString defaultClients(int pus) {
    return QStringLiteral("1-%1 x2").arg(std::max(2, 2 * pus));
}

} // namespace

SetupPage::SetupPage(const TopologyInfo& machine, QWidget* parent) : QWidget(parent), machine_(machine) {
    auto* layout = new QVBoxLayout(this);

    examples_ = new ExamplesBox(machine_);
    examples_->hide();
    layout->addWidget(examples_);

    auto* target = new QGroupBox(tr("Target"));
    auto* tf = new QFormLayout(target);
    embedded_ = new QRadioButton(tr("Embedded PostgreSQL server"));
    remote_ = new QRadioButton(tr("A server of yours (connection string, no password)"));
    embedded_->setChecked(true);
    dataDir_ = new QLineEdit(QString::fromStdString(defaultDataDir().string()));
    conninfo_ = new QLineEdit;
    conninfo_->setPlaceholderText(QStringLiteral("host=db1 port=5432 dbname=bench user=bench"));
    testConnection_ = new QPushButton(tr("Test connection"));
    connectionResult_ = new QLabel;
    connectionResult_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    auto* connRow = new QHBoxLayout;
    connRow->addWidget(conninfo_);
    connRow->addWidget(testConnection_);
    tf->addRow(embedded_);
    tf->addRow(tr("Data directory"), dataDir_);
    serverHost_ = new QLineEdit;
    serverHost_->setPlaceholderText(tr("empty: this machine; or bench@db1"));
    serverHost_->setToolTip(tr("The machine the embedded server runs on: ScaleLab's agent starts, sets and watches it "
                               "there (over ssh with your keys), places it on that machine's PUs as each series says, "
                               "and reads that machine's CPU and disks; the clients run here (or on the load hosts) "
                               "and connect over TCP with a password: docs/hosts.md"));
    tf->addRow(tr("Server host"), serverHost_);
    tf->addRow(remote_);
    tf->addRow(tr("Connection"), connRow);
    tf->addRow(QString(), connectionResult_);
    metricsHost_ = new QLineEdit;
    metricsHost_->setPlaceholderText(tr("empty: the CPU and disks shown are this machine's; or bench@db1"));
    metricsHost_->setToolTip(tr("The machine your server runs on: ScaleLab's agent reads its CPU, disks and the "
                                "server's processes there (started over ssh with your keys): docs/hosts.md"));
    tf->addRow(tr("Server's machine"), metricsHost_);
    loadHosts_ = new QLineEdit;
    loadHosts_->setPlaceholderText(tr("empty: the clients run on this machine; or bench@client1, bench@client2"));
    loadHosts_->setToolTip(tr("Machines the clients run from, shared among them (started over ssh with your keys and "
                              "ssh config; \"local\" is this machine): docs/load-hosts.md"));
    tf->addRow(tr("Load hosts"), loadHosts_);
    layout->addWidget(target);

    auto* workload = new QGroupBox(tr("Workload"));
    auto* wf = new QFormLayout(workload);
    builtin_ = new QComboBox;
    builtin_->addItems({QStringLiteral("tpcb-like"), QStringLiteral("simple-update"), QStringLiteral("select-only"),
                        tr("script file"), tr("replay file"), tr("TPROC-C (order entry)")});
    builtin_->setItemData(kTproccItem,
                          tr("TPC-C's order entry as HammerDB runs it: five transactions on nine tables sized by the "
                             "warehouses; NOPM and TPM among the metrics (docs/load.md)"),
                          Qt::ToolTipRole);
    scriptFile_ = new QLineEdit;
    scriptFile_->setPlaceholderText(tr("script.sql (pgbench script language) or a replay file of SQL statements"));
    shuffle_ = new QCheckBox(tr("replay: each client in its own order"));
    mode_ = new QComboBox;
    mode_->addItems({QStringLiteral("simple"), QStringLiteral("extended"), QStringLiteral("prepared")});
    mode_->setCurrentText(QStringLiteral("prepared"));
    // Text, not a spin box: one scale, or a list that makes data size an axis of the grid.
    scales_ = new QLineEdit(QStringLiteral("10"));
    scales_->setToolTip(tr("pgbench's scale (-s), or a list (10, 100, 1000) or range (10-1000 x10): a data-size "
                           "sweep, the data rebuilt when the scale changes (docs/sweeps.md)"));
    wf->addRow(tr("Script"), builtin_);
    wf->addRow(tr("Script or replay file"), scriptFile_);
    wf->addRow(QString(), shuffle_);
    defines_ = new QLineEdit;
    defines_->setPlaceholderText(tr("name=value, ... (pgbench -D: script variables)"));
    seed_ = new QLineEdit;
    seed_->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,20}")), seed_));
    seed_->setPlaceholderText(tr("empty: a new seed per sweep, kept in the experiment (pgbench --random-seed)"));
    warehouses_ = new QSpinBox;
    warehouses_->setRange(1, 100000);
    warehouses_->setToolTip(tr("TPROC-C's data size: about 500,000 rows (100 MB) per warehouse, loaded before the "
                               "first run when the cluster has another number (docs/load.md)"));
    wf->addRow(tr("Query mode"), mode_);
    wf->addRow(tr("Scales"), scales_);
    wf->addRow(tr("Warehouses"), warehouses_);
    wf->addRow(tr("Variables (-D)"), defines_);
    wf->addRow(tr("Random seed"), seed_);
    layout->addWidget(workload);

    auto* grid = new QGroupBox(tr("Runs"));
    auto* gf = new QFormLayout(grid);
    clients_ = new QLineEdit(defaultClients(machine_.puCount()));
    clients_->setToolTip(tr("A list (1,2,4), a doubling range (1-64 x2) or a stepped range (4-32 +4)"));
    rates_ = new QLineEdit;
    rates_->setPlaceholderText(tr("empty: as fast as the server goes; or 500, 1000, 2000 tps (pgbench -R)"));
    rates_->setToolTip(tr("The rate the clients ask for, in transactions per second (pgbench -R), or a list or range "
                          "(500-4000 x2): an offered-load sweep, latency against the load asked for (docs/sweeps.md)"));
    // The number fields take negative numbers too (issue 61.10): a spin box refuses what is out of
    // its range without a word and puts the old value back, so a typed -5 became 20 s again. The
    // plan's own rules say what is wrong, beside the field, as for any other mistake.
    threadsRule_ = new QComboBox;
    threadsRule_->addItems({tr("one per load-generator PU"), tr("one per client"), tr("fixed")});
    threadsFixed_ = new QSpinBox;
    threadsFixed_->setRange(-1024, 1024);
    threadsFixed_->setValue(2);
    auto* threadsRow = new QHBoxLayout;
    threadsRow->addWidget(threadsRule_);
    threadsRow->addWidget(threadsFixed_);
    length_ = new QComboBox;
    length_->addItems({tr("timed (duration)"), tr("transactions per client")});
    transactions_ = new QSpinBox;
    transactions_->setRange(-100000000, 100000000);
    transactions_->setValue(10000);
    auto* lengthRow = new QHBoxLayout;
    lengthRow->addWidget(length_);
    lengthRow->addWidget(transactions_);
    duration_ = new QDoubleSpinBox;
    duration_->setRange(-86400, 86400);
    duration_->setValue(20);
    duration_->setSuffix(QStringLiteral(" s"));
    warmup_ = new QDoubleSpinBox;
    warmup_->setRange(-3600, 3600);
    warmup_->setValue(5);
    warmup_->setSuffix(QStringLiteral(" s"));
    repetitions_ = new QSpinBox;
    repetitions_->setRange(-1000, 1000);
    repetitions_->setValue(3);
    order_ = new QComboBox;
    order_->addItems({QStringLiteral("interleaved"), QStringLiteral("sequential")});
    gf->addRow(tr("Client counts"), clients_);
    gf->addRow(tr("Offered rates"), rates_);
    gf->addRow(tr("Threads"), threadsRow);
    gf->addRow(tr("Run length"), lengthRow);
    gf->addRow(tr("Duration"), duration_);
    gf->addRow(tr("Warm-up"), warmup_);
    gf->addRow(tr("Repetitions"), repetitions_);
    gf->addRow(tr("Order"), order_);
    // Why the curve bends (issue 62): where the sessions wait, on unless unchecked.
    waits_ = new QCheckBox(tr("where the sessions wait (pg_stat_activity, 10 times a second)"));
    waits_->setChecked(true);
    waits_->setToolTip(tr("Samples each run's server sessions by wait event through its counted window: the Results' "
                          "reports show average active sessions and wait time per transaction by event "
                          "(docs/metrics.md, \"Where the sessions wait\")"));
    gf->addRow(tr("Diagnostics"), waits_);
    cpuProfile_ = new QCheckBox(tr("where the server's CPU goes (perf, 99 samples a second)"));
    cpuProfile_->setToolTip(tr("Records an on-CPU profile of the server's processes through each run's counted window "
                               "with perf (a server on this machine): the Results' reports show the functions and flame "
                               "graphs per 1,000 transactions (docs/metrics.md, \"Where the server's CPU goes\")"));
    gf->addRow(QString(), cpuProfile_);
    layout->addWidget(grid);

    auto* seriesBox = new QGroupBox(tr("Series"));
    auto* sl = new QVBoxLayout(seriesBox);
    series_ = new QTableWidget(0, SeriesColumns);
    series_->setHorizontalHeaderLabels({tr("Label"), tr("Placement"), tr("Separate"), tr("Server settings"),
                                        tr("PUs: server / load generator")});
    series_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Each column says what it takes (issue 61.10: Separate had no word at all).
    const char* const kColumnTips[] = {
        QT_TR_NOOP("The series' name, as charts and reports show it"),
        QT_TR_NOOP("Where the server runs: all, smt-on, smt-off, cores:N, cores:N+smt, pus:LIST[/LIST]"),
        QT_TR_NOOP("Checked: the load generator runs on PUs of its own, away from the server's cores and their SMT "
                   "siblings (needs a placement)"),
        QT_TR_NOOP("Server settings for this series only, name=value, comma-separated (work_mem=64MB, jit=off)"),
        QT_TR_NOOP("The PUs the placement gives the server and the load generator on this machine")};
    for (int c = 0; c < SeriesColumns; ++c) series_->horizontalHeaderItem(c)->setToolTip(tr(kColumnTips[c]));
    auto* addRow = new QPushButton(tr("Add series"));
    auto* removeRow = new QPushButton(tr("Remove series"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addRow);
    buttons->addWidget(removeRow);
    buttons->addStretch();
    seriesNote_ = new QLabel;
    seriesNote_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    seriesNote_->setWordWrap(true);
    sl->addWidget(series_);
    sl->addLayout(buttons);
    sl->addWidget(seriesNote_);
    layout->addWidget(seriesBox);

    kept_ = new QLabel;
    kept_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    kept_->setWordWrap(true);
    kept_->hide();
    layout->addWidget(kept_);
    estimate_ = new QLabel;
    estimate_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    // A long problem there is cut, never widens the window (its tooltip has every problem).
    estimate_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    problemsLabel_ = new QLabel;
    problemsLabel_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    problemsLabel_->setWordWrap(true);
    problemsLabel_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    start_ = new QPushButton(tr("Start sweep"));
    // The estimate and Start in a bar the window keeps below the scrolled form (actionBar()),
    // as installers do: Start is in reach at any window size, without scrolling (issue 32.1).
    auto* bar = new QFrame;
    bar->setFrameShape(QFrame::StyledPanel);
    actionBar_ = bar;
    auto* bottom = new QHBoxLayout(bar);
    bottom->setContentsMargins(8, 4, 8, 4);
    bottom->addWidget(estimate_, 1);
    bottom->addWidget(start_);
    layout->addWidget(problemsLabel_);

    // Defaults for a first run: SMT on/off where the machine has SMT, else all and half the cores.
    if (machine_.smtAvailable()) {
        addSeries(QStringLiteral("SMT on"), QStringLiteral("smt-on"));
        addSeries(QStringLiteral("SMT off"), QStringLiteral("smt-off"));
    } else {
        int cores = static_cast<int>(machine_.cores.size());
        addSeries(QStringLiteral("all cores"), QStringLiteral("cores:%1").arg(cores));
        addSeries(QStringLiteral("half the cores"), QStringLiteral("cores:%1").arg(std::max(1, cores / 2)));
        seriesNote_->setText(QString::fromStdString(smtComparisonWarning(machine_)));
    }

    connect(addRow, &QPushButton::clicked, this, [this] { addSeries(tr("series %1").arg(series_->rowCount() + 1), QStringLiteral("smt-on")); });
    connect(removeRow, &QPushButton::clicked, this, [this] {
        if (series_->currentRow() >= 0) series_->removeRow(series_->currentRow());
        revalidate();
    });
    for (auto* e : {dataDir_, serverHost_, conninfo_, metricsHost_, clients_, scriptFile_, defines_, seed_, loadHosts_, scales_, rates_})
        connect(e, &QLineEdit::textChanged, this, &SetupPage::revalidate);
    connect(shuffle_, &QCheckBox::toggled, this, &SetupPage::revalidate);
    connect(waits_, &QCheckBox::toggled, this, &SetupPage::revalidate);
    connect(cpuProfile_, &QCheckBox::toggled, this, &SetupPage::revalidate);
    for (auto* c : {builtin_, mode_, threadsRule_, order_, length_})
        connect(c, qOverload<int>(&QComboBox::currentIndexChanged), this, &SetupPage::revalidate);
    for (auto* s : {threadsFixed_, repetitions_, transactions_, warehouses_}) connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &SetupPage::revalidate);
    for (auto* d : {duration_, warmup_}) connect(d, qOverload<double>(&QDoubleSpinBox::valueChanged), this, &SetupPage::revalidate);
    for (auto* r : {embedded_, remote_}) connect(r, &QRadioButton::toggled, this, &SetupPage::revalidate);
    connect(series_, &QTableWidget::itemChanged, this, &SetupPage::revalidate);
    connect(examples_, &ExamplesBox::chosen, this, [this](const nlohmann::json& plan) { setPlanJson(plan); });
    connect(start_, &QPushButton::clicked, this, [this] {
        if (plan_) emit startRequested(*plan_);
    });
    connect(testConnection_, &QPushButton::clicked, this, [this] {
        // A ping can take seconds against a host that does not answer: not on the GUI thread.
        std::string conninfo = conninfo_->text().toStdString();
        connectionResult_->setText(tr("testing..."));
        // The answer goes to the label only if it still exists (the window may close first).
        auto* t = QThread::create([label = QPointer<QLabel>(connectionResult_), conninfo] {
            Ping ping = pingServer(conninfo, 5);
            QString text = ping == Ping::Accepting   ? tr("server accepts connections")
                           : ping == Ping::Rejecting ? tr("server is up but rejects connections (starting or shutting down?)")
                           : ping == Ping::Invalid   ? tr("the connection string is not valid")
                                                     : tr("no answer from the server");
            QMetaObject::invokeMethod(
                QCoreApplication::instance(), [label, text] {
                    if (label) label->setText(text);
                },
                Qt::QueuedConnection);
        });
        connect(t, &QThread::finished, t, &QObject::deleteLater);
        t->start();
    });
    revalidate();
}

void SetupPage::addSeries(const QString& label, const QString& placement, const QString& settings) {
    QSignalBlocker block(series_);
    int row = series_->rowCount();
    series_->insertRow(row);
    series_->setItem(row, Label, new QTableWidgetItem(label));
    series_->setItem(row, Placement, new QTableWidgetItem(placement));
    auto* separate = new QTableWidgetItem;
    separate->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    separate->setCheckState(Qt::Unchecked);
    series_->setItem(row, Separate, separate);
    series_->setItem(row, Settings, new QTableWidgetItem(settings));
    auto* pus = new QTableWidgetItem;
    pus->setFlags(Qt::ItemIsEnabled);
    series_->setItem(row, Pus, pus);
    block.unblock();
    revalidate();
}

QWidget* SetupPage::fieldFor(const QString& path) const {
    if (path.startsWith(QLatin1String("$.clients"))) return clients_;
    if (path.startsWith(QLatin1String("$.duration"))) return duration_;
    if (path.startsWith(QLatin1String("$.warmup"))) return warmup_;
    if (path.startsWith(QLatin1String("$.repetitions"))) return repetitions_;
    if (path.startsWith(QLatin1String("$.target.conninfo"))) return conninfo_;
    if (path.startsWith(QLatin1String("$.target.metrics_host"))) return metricsHost_;
    if (path.startsWith(QLatin1String("$.target.host"))) return serverHost_;
    if (path.startsWith(QLatin1String("$.target"))) return dataDir_;
    if (path.startsWith(QLatin1String("$.workload.files")) || path.startsWith(QLatin1String("$.workload.replay")) ||
        path.startsWith(QLatin1String("$.workload.mode")))
        return path.startsWith(QLatin1String("$.workload.mode")) ? static_cast<QWidget*>(mode_) : scriptFile_;
    if (path.startsWith(QLatin1String("$.transactions"))) return transactions_;
    if (path.startsWith(QLatin1String("$.workload.define"))) return defines_;
    if (path.startsWith(QLatin1String("$.seed"))) return seed_;
    if (path.startsWith(QLatin1String("$.series"))) return series_;
    if (path.startsWith(QLatin1String("$.threads"))) return threadsFixed_;
    if (path.startsWith(QLatin1String("$.load_hosts"))) return loadHosts_;
    if (path.startsWith(QLatin1String("$.workload.rate"))) return rates_;
    if (path.startsWith(QLatin1String("$.data.scale"))) return scales_;
    if (path.startsWith(QLatin1String("$.data.warehouses"))) return warehouses_;
    if (path.startsWith(QLatin1String("$.workload.kind"))) return builtin_;
    return nullptr;
}

void SetupPage::markSeriesRow(int row) {
    QSignalBlocker quiet(series_);  // colouring a cell is no edit of the plan
    auto paint = [this](int r, const QVariant& background) {
        for (int c = 0; c < series_->columnCount(); ++c)
            if (QTableWidgetItem* item = series_->item(r, c)) item->setData(Qt::BackgroundRole, background);
    };
    if (row < 0) {
        for (int r : markedRows_)
            if (r < series_->rowCount()) paint(r, QVariant());
        markedRows_.clear();
        return;
    }
    if (row >= series_->rowCount()) return;
    paint(row, QColor(0xfd, 0xec, 0xea));
    markedRows_.append(row);
}

void SetupPage::revalidate() {
    for (QWidget* w : marked_) w->setStyleSheet(QString()), w->setPalette(QPalette()), w->setToolTip(QString());
    marked_.clear();
    markSeriesRow(-1);
    problems_.clear();
    plan_.reset();
    nlohmann::json j = planJson();
    bool timed = length_->currentIndex() == 0;
    duration_->setEnabled(timed);
    warmup_->setEnabled(timed);
    transactions_->setEnabled(!timed);
    shuffle_->setEnabled(builtin_->currentIndex() == 4);
    bool tprocc = builtin_->currentIndex() == kTproccItem;
    scriptFile_->setEnabled(builtin_->currentIndex() == 3 || builtin_->currentIndex() == 4);
    scales_->setEnabled(!tprocc);  // pgbench's data size; TPROC-C's is the warehouses
    warehouses_->setEnabled(tprocc);
    metricsHost_->setEnabled(remote_->isChecked());  // the embedded server is measured where it runs
    threadsFixed_->setEnabled(threadsRule_->currentIndex() == 2);  // the count of "fixed" only
    serverHost_->setEnabled(embedded_->isChecked());
    // The plan parser is the one judge of the plan, the same as `scalelab sweep`'s; the form
    // marks the field the error's JSON path names.
    try {
        plan_ = parsePlan(j);
    } catch (const std::exception& e) {
        problems_ << errorText(e);
    }
    // A misspelt server setting is named here, on its row, with the nearest real name, not by the
    // sweep after the file dialog (issue 61.2: "shared_bufers" failed the sweep in plan words).
    if (plan_ && !settingNamesUnavailable_) {
        try {
            checkEmbeddedSettingNames(*plan_, settingNames_);
        } catch (const Error& e) {
            if (std::string(e.what()).rfind("$.", 0) == 0) {
                problems_ << errorText(e);
                plan_.reset();
            } else {
                settingNamesUnavailable_ = true;  // no server programs here: Start's check says so
            }
        }
    }
    if (plan_ && (builtin_->currentIndex() == 3 || builtin_->currentIndex() == 4)) {
        try {
            plan_->workload();  // reads and checks the script or replay file
        } catch (const std::exception& e) {
            // The first line: the command's line and its caret, under it for a terminal, do not
            // line up in the form's font.
            problems_ << (builtin_->currentIndex() == 3 ? QStringLiteral("$.workload.files: ") : QStringLiteral("$.workload.replay: ")) +
                             errorText(e).section(QLatin1Char('\n'), 0, 0);
            plan_.reset();
        }
    }
    // A placement this machine cannot give (cores:8 on two cores) would fail the sweep at its
    // first run of that series: refused here, where the PU column already says why.
    for (const QString& pu : updatePuColumn()) {
        QString path = pu.section(QLatin1Char(':'), 0, 0);
        if (std::none_of(problems_.begin(), problems_.end(), [&](const QString& p) { return p.startsWith(path + QLatin1Char(':')); }))
            problems_ << pu;  // once: the plan's own check may have named it already
        plan_.reset();
    }
    for (QString& p : problems_) {
        QString path = p.section(QLatin1Char(':'), 0, 0);
        static const QRegularExpression seriesRow(QStringLiteral("^\\$\\.series\\[(\\d+)\\]"));
        if (auto m = seriesRow.match(path); m.hasMatch()) {
            // The row, not the table: a style sheet on the table restyled its header and cut
            // the row numbers (issue 32.11).
            markSeriesRow(m.captured(1).toInt());
        } else if (QWidget* w = fieldFor(path); w == series_) {
            for (int r = 0; r < series_->rowCount(); ++r) markSeriesRow(r);  // the series as a whole
        } else if (w) {
            if (qobject_cast<QAbstractSpinBox*>(w)) {
                // A style sheet on a spin box drops its arrows (issue 61.10): its colour marks it.
                QPalette invalid = w->palette();
                invalid.setColor(QPalette::Base, QColor(0xfd, 0xec, 0xea));
                invalid.setColor(QPalette::Text, QColor(0xc0, 0x39, 0x2b));
                w->setPalette(invalid);
            } else {
                w->setStyleSheet(QString::fromLatin1(kInvalidStyle));
            }
            w->setToolTip(plainToolTip(forTheForm(p)));
            marked_.append(w);
        }
        p = forTheForm(p);
    }
    problemsLabel_->setText(problems_.join(QLatin1Char('\n')));
    start_->setEnabled(plan_.has_value());
    if (plan_) {
        estimate_->setToolTip(QString());
        SweepEstimate e = estimateSweep(*plan_);
        // Seconds for short sweeps (12 short runs are not "about 0 h 0 min"), minutes, hours.
        auto length = [this](double seconds) {
            int secs = static_cast<int>(seconds + 0.5);
            return secs < 60     ? tr("%1 s").arg(secs)
                   : secs < 3600 ? tr("%1 min %2 s").arg(secs / 60).arg(secs % 60, 2, 10, QLatin1Char('0'))
                                 : tr("%1 h %2 min").arg(secs / 3600).arg(secs / 60 % 60, 2, 10, QLatin1Char('0'));
        };
        // A loaded plan's precision rule adds rounds where a point is not precise enough yet.
        QString runs = e.maxRuns > e.runs ? tr("%1 to %2 runs").arg(e.runs).arg(e.maxRuns) : tr("%1 runs").arg(e.runs);
        if (e.seconds)
            estimate_->setText(e.maxRuns > e.runs ? tr("%1, about %2 to %3").arg(runs, length(*e.seconds), length(*e.maxSeconds))
                                                  : tr("%1, about %2").arg(runs, length(*e.seconds)));
        else
            estimate_->setText(tr("%1 of %2 transactions per client (time depends on the server)")
                                   .arg(runs)
                                   .arg(plan_->transactionsPerClient));
        // What the embedded server will do for many clients, said before Start (issue 61.10:
        // 100000 clients were accepted without a word against PostgreSQL's default of 100).
        int most = *std::max_element(plan_->clients.begin(), plan_->clients.end());
        constexpr int kDefaultMaxConnections = 100, kDefaultReserved = 3;
        if (plan_->embedded() && maxConnectionsFor(most, kDefaultReserved) > kDefaultMaxConnections)
            estimate_->setText(estimate_->text() + tr("; the embedded server's max_connections goes up to %1 for %2 clients "
                                                      "(one restart)")
                                                       .arg(maxConnectionsFor(most, kDefaultReserved))
                                                       .arg(most));
    } else {
        // The first problem itself, where the form's list may be scrolled away (issue 61.10).
        estimate_->setText(problems_.isEmpty() ? tr("plan not valid yet") : tr("not valid yet: %1").arg(problems_.first()));
        estimate_->setToolTip(problems_.join(QLatin1Char('\n')));
    }
}

QStringList SetupPage::updatePuColumn() {
    QSignalBlocker block(series_);
    QStringList problems;
    for (int r = 0; r < series_->rowCount(); ++r) {
        QString text;
        auto* placement = series_->item(r, Placement);
        auto* separate = series_->item(r, Separate);
        try {
            std::string p = placement ? placement->text().trimmed().toStdString() : "";
            if (p.empty()) {
                text = tr("all PUs, unbound");
            } else if (embedded_->isChecked() && !serverHost_->text().trimmed().isEmpty()) {
                // Placed on the server host by its agent, on that machine's PUs: judged there when
                // the sweep starts, not against this machine.
                parsePlacement(p, separate && separate->checkState() == Qt::Checked);
                text = tr("the server host's, placed there");
            } else {
                scalelab::Placement pl = place(machine_, parsePlacement(p, separate && separate->checkState() == Qt::Checked));
                text = QString::fromStdString(pl.server.toList() + " / " + pl.client.toList());
            }
        } catch (const std::exception& e) {
            text = errorText(e);
            problems << QStringLiteral("$.series[%1].placement: %2").arg(r).arg(text);
        }
        if (series_->item(r, Pus)) series_->item(r, Pus)->setText(text);
    }
    return problems;
}

} // namespace scalelab::ui
