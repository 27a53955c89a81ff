#include "pages/SetupPage.h"

#include "server/EmbeddedServer.h"
#include "topo/Placement.h"
#include "util/Error.h"

#include <algorithm>
#include <QCheckBox>
#include <QComboBox>
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
#include <QSpinBox>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>

#include <libpq-fe.h>

namespace scalelab::ui {
namespace {
// A plan's JSON path as the form shows it: "$.series[1]" is the series table's row 2.
QString forTheForm(const QString& problem) {
    static const QRegularExpression row(QStringLiteral("^\\$\\.series\\[(\\d+)\\]\\.?"));
    QRegularExpressionMatch m = row.match(problem);
    if (!m.hasMatch()) return problem;
    QString rest = problem.mid(m.capturedLength());
    return QStringLiteral("series row %1%2%3").arg(m.captured(1).toInt() + 1).arg(rest.startsWith(QLatin1Char(':')) ? QString() : QStringLiteral(" ")).arg(rest);
}

enum SeriesColumn { Label, Placement, Separate, Settings, Pus, SeriesColumns };

const char* kInvalidStyle = "border: 2px solid #c0392b; background: #fdecea;";

// "name=value, name=value" -> {"name": "value"}
nlohmann::json settingsJson(const QString& text) {
    nlohmann::json j = nlohmann::json::object();
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString t = item.trimmed();
        int eq = t.indexOf(QLatin1Char('='));
        if (eq < 0) j[t.toStdString()] = nullptr;  // the parser names it
        else j[t.left(eq).trimmed().toStdString()] = t.mid(eq + 1).trimmed().toStdString();
    }
    return j;
}

QString defaultClients(int pus) {
    return QStringLiteral("1-%1 x2").arg(std::max(2, 2 * pus));
}

} // namespace

SetupPage::SetupPage(const TopologyInfo& machine, QWidget* parent) : QWidget(parent), machine_(machine) {
    auto* layout = new QVBoxLayout(this);

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
    auto* connRow = new QHBoxLayout;
    connRow->addWidget(conninfo_);
    connRow->addWidget(testConnection_);
    tf->addRow(embedded_);
    tf->addRow(tr("Data directory"), dataDir_);
    tf->addRow(remote_);
    tf->addRow(tr("Connection"), connRow);
    tf->addRow(QString(), connectionResult_);
    layout->addWidget(target);

    auto* workload = new QGroupBox(tr("Workload"));
    auto* wf = new QFormLayout(workload);
    builtin_ = new QComboBox;
    builtin_->addItems({QStringLiteral("tpcb-like"), QStringLiteral("simple-update"), QStringLiteral("select-only"),
                        tr("script file"), tr("replay file")});
    scriptFile_ = new QLineEdit;
    scriptFile_->setPlaceholderText(tr("script.sql (pgbench script language) or a replay file of SQL statements"));
    shuffle_ = new QCheckBox(tr("replay: each client in its own order"));
    mode_ = new QComboBox;
    mode_->addItems({QStringLiteral("simple"), QStringLiteral("extended"), QStringLiteral("prepared")});
    mode_->setCurrentText(QStringLiteral("prepared"));
    scale_ = new QSpinBox;
    scale_->setRange(1, 100000);
    scale_->setValue(10);
    wf->addRow(tr("Script"), builtin_);
    wf->addRow(tr("Script or replay file"), scriptFile_);
    wf->addRow(QString(), shuffle_);
    defines_ = new QLineEdit;
    defines_->setPlaceholderText(tr("name=value, ... (pgbench -D: script variables)"));
    seed_ = new QLineEdit;
    seed_->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,20}")), seed_));
    seed_->setPlaceholderText(tr("empty: a new seed per sweep, kept in the experiment (pgbench --random-seed)"));
    wf->addRow(tr("Query mode"), mode_);
    wf->addRow(tr("Scale"), scale_);
    wf->addRow(tr("Variables (-D)"), defines_);
    wf->addRow(tr("Random seed"), seed_);
    layout->addWidget(workload);

    auto* grid = new QGroupBox(tr("Runs"));
    auto* gf = new QFormLayout(grid);
    clients_ = new QLineEdit(defaultClients(machine_.puCount()));
    clients_->setToolTip(tr("A list (1,2,4), a doubling range (1-64 x2) or a stepped range (4-32 +4)"));
    threadsRule_ = new QComboBox;
    threadsRule_->addItems({tr("one per load-generator PU"), tr("one per client"), tr("fixed")});
    threadsFixed_ = new QSpinBox;
    threadsFixed_->setRange(1, 1024);
    threadsFixed_->setValue(2);
    auto* threadsRow = new QHBoxLayout;
    threadsRow->addWidget(threadsRule_);
    threadsRow->addWidget(threadsFixed_);
    length_ = new QComboBox;
    length_->addItems({tr("timed (duration)"), tr("transactions per client")});
    transactions_ = new QSpinBox;
    transactions_->setRange(0, 100000000);
    transactions_->setValue(10000);
    auto* lengthRow = new QHBoxLayout;
    lengthRow->addWidget(length_);
    lengthRow->addWidget(transactions_);
    duration_ = new QDoubleSpinBox;
    duration_->setRange(0, 86400);
    duration_->setValue(20);
    duration_->setSuffix(QStringLiteral(" s"));
    warmup_ = new QDoubleSpinBox;
    warmup_->setRange(0, 3600);
    warmup_->setValue(5);
    warmup_->setSuffix(QStringLiteral(" s"));
    repetitions_ = new QSpinBox;
    repetitions_->setRange(0, 1000);
    repetitions_->setValue(3);
    order_ = new QComboBox;
    order_->addItems({QStringLiteral("interleaved"), QStringLiteral("sequential")});
    gf->addRow(tr("Client counts"), clients_);
    gf->addRow(tr("Threads"), threadsRow);
    gf->addRow(tr("Run length"), lengthRow);
    gf->addRow(tr("Duration"), duration_);
    gf->addRow(tr("Warm-up"), warmup_);
    gf->addRow(tr("Repetitions"), repetitions_);
    gf->addRow(tr("Order"), order_);
    layout->addWidget(grid);

    auto* seriesBox = new QGroupBox(tr("Series"));
    auto* sl = new QVBoxLayout(seriesBox);
    series_ = new QTableWidget(0, SeriesColumns);
    series_->setHorizontalHeaderLabels({tr("Label"), tr("Placement"), tr("Separate"), tr("Server settings"),
                                        tr("PUs: server / load generator")});
    series_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    auto* addRow = new QPushButton(tr("Add series"));
    auto* removeRow = new QPushButton(tr("Remove series"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(addRow);
    buttons->addWidget(removeRow);
    buttons->addStretch();
    seriesNote_ = new QLabel;
    seriesNote_->setWordWrap(true);
    sl->addWidget(series_);
    sl->addLayout(buttons);
    sl->addWidget(seriesNote_);
    layout->addWidget(seriesBox);

    kept_ = new QLabel;
    kept_->setWordWrap(true);
    kept_->hide();
    layout->addWidget(kept_);
    estimate_ = new QLabel;
    problemsLabel_ = new QLabel;
    problemsLabel_->setWordWrap(true);
    problemsLabel_->setStyleSheet(QStringLiteral("color: #c0392b;"));
    start_ = new QPushButton(tr("Start sweep"));
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(estimate_, 1);
    bottom->addWidget(start_);
    layout->addWidget(problemsLabel_);
    layout->addLayout(bottom);

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
    for (auto* e : {dataDir_, conninfo_, clients_, scriptFile_, defines_, seed_})
        connect(e, &QLineEdit::textChanged, this, &SetupPage::revalidate);
    connect(shuffle_, &QCheckBox::toggled, this, &SetupPage::revalidate);
    for (auto* c : {builtin_, mode_, threadsRule_, order_, length_})
        connect(c, qOverload<int>(&QComboBox::currentIndexChanged), this, &SetupPage::revalidate);
    for (auto* s : {scale_, threadsFixed_, repetitions_, transactions_}) connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &SetupPage::revalidate);
    for (auto* d : {duration_, warmup_}) connect(d, qOverload<double>(&QDoubleSpinBox::valueChanged), this, &SetupPage::revalidate);
    for (auto* r : {embedded_, remote_}) connect(r, &QRadioButton::toggled, this, &SetupPage::revalidate);
    connect(series_, &QTableWidget::itemChanged, this, &SetupPage::revalidate);
    connect(start_, &QPushButton::clicked, this, [this] {
        if (plan_) emit startRequested(*plan_);
    });
    connect(testConnection_, &QPushButton::clicked, this, [this] {
        // PQping can take seconds against a host that does not answer: not on the GUI thread.
        std::string conninfo = conninfo_->text().toStdString() + " connect_timeout=5";
        connectionResult_->setText(tr("testing..."));
        auto* t = QThread::create([this, conninfo] {
            PGPing ping = PQping(conninfo.c_str());
            QString text = ping == PQPING_OK ? tr("server accepts connections")
                           : ping == PQPING_REJECT ? tr("server is up but rejects connections (starting or shutting down?)")
                           : ping == PQPING_NO_ATTEMPT ? tr("the connection string is not valid")
                                                       : tr("no answer from the server");
            QMetaObject::invokeMethod(this, [this, text] { connectionResult_->setText(text); }, Qt::QueuedConnection);
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

namespace {
// What the form writes; anything else in a given plan is the plan's own and is kept.
const char* const kFormMembers[] = {"version", "target", "workload", "series", "clients", "threads", "duration",
                                    "warmup", "transactions", "repetitions", "order", "data", "seed"};
const char* const kFormWorkload[] = {"builtin", "files", "replay", "shuffle", "mode", "define"};
const char* const kFormTarget[] = {"data_dir", "conninfo"};
const char* const kFormSeries[] = {"label", "placement", "separate", "settings"};
const char* const kFormData[] = {"scale"};

template <size_t N>
bool among(const std::string& key, const char* const (&names)[N]) {
    return std::find(std::begin(names), std::end(names), key) != std::end(names);
}

// Members of `from` that are not among `names`, copied into `into` (which the form filled).
template <size_t N>
void keepOthers(nlohmann::json& into, const nlohmann::json& from, const char* const (&names)[N]) {
    if (!from.is_object()) return;
    for (const auto& [key, value] : from.items())
        if (!among(key, names)) into[key] = value;
}
} // namespace

QStringList SetupPage::keptMembers() const {
    QStringList kept;
    if (!loaded_.is_object()) return kept;
    auto list = [&](const nlohmann::json& obj, const QString& at, auto& names) {
        if (!obj.is_object()) return;
        for (const auto& [key, value] : obj.items())
            if (!among(key, names)) kept << at + QString::fromStdString(key);
    };
    list(loaded_, QStringLiteral("$."), kFormMembers);
    if (loaded_.contains("workload")) list(loaded_["workload"], QStringLiteral("$.workload."), kFormWorkload);
    if (loaded_.contains("target")) list(loaded_["target"], QStringLiteral("$.target."), kFormTarget);
    if (loaded_.contains("data")) list(loaded_["data"], QStringLiteral("$.data."), kFormData);
    if (loaded_.contains("series") && loaded_["series"].is_array())
        for (const auto& s : loaded_["series"])
            if (s.is_object() && s.contains("label") && s["label"].is_string())
                list(s, QStringLiteral("$.series[%1].").arg(QString::fromStdString(s["label"].get<std::string>())), kFormSeries);
    return kept;
}

nlohmann::json SetupPage::planJson() const {
    nlohmann::json j = planFromForm();
    if (!loaded_.is_object() || loaded_.empty()) return j;
    keepOthers(j, loaded_, kFormMembers);
    if (loaded_.contains("workload") && loaded_["workload"].is_object()) {
        const nlohmann::json& lw = loaded_["workload"];
        nlohmann::json& w = j["workload"];
        keepOthers(w, lw, kFormWorkload);
        // The form shows the first of several scripts; while that one stays chosen, all run.
        auto firstName = [](const nlohmann::json& list) {
            std::string first = list.at(0).get<std::string>();
            return first.substr(0, first.find('@'));
        };
        if (lw.contains("builtin") && lw["builtin"].is_array() && lw["builtin"].size() > 1 && w.contains("builtin") &&
            w["builtin"].is_string() && firstName(lw["builtin"]) == w["builtin"].get<std::string>())
            w["builtin"] = lw["builtin"];
        if (lw.contains("files") && lw["files"].is_array() && lw["files"].size() > 1 && w.contains("files") &&
            w["files"].is_array() && !w["files"].empty() && firstName(lw["files"]) == firstName(w["files"]))
            w["files"] = lw["files"];
    }
    if (loaded_.contains("data")) keepOthers(j["data"], loaded_["data"], kFormData);
    // The target's other members (its settings, pg_bindir) belong to the same kind of target.
    if (loaded_.contains("target") && loaded_["target"].is_object() &&
        loaded_["target"].contains("conninfo") == j["target"].contains("conninfo"))
        keepOthers(j["target"], loaded_["target"], kFormTarget);
    // A series keeps its own members (data_dir, pg_bindir, real SMT ...) while its label stays.
    if (loaded_.contains("series") && loaded_["series"].is_array())
        for (auto& s : j["series"])
            for (const auto& old : loaded_["series"])
                if (old.is_object() && old.value("label", nlohmann::json()) == s["label"]) keepOthers(s, old, kFormSeries);
    return j;
}

nlohmann::json SetupPage::planFromForm() const {
    nlohmann::json j;
    j["version"] = 1;
    if (embedded_->isChecked()) j["target"] = {{"data_dir", dataDir_->text().toStdString()}};
    else j["target"] = {{"conninfo", conninfo_->text().toStdString()}};
    nlohmann::json w;
    if (builtin_->currentIndex() == 3) {
        w["files"] = {scriptFile_->text().toStdString()};
    } else if (builtin_->currentIndex() == 4) {
        w["replay"] = scriptFile_->text().toStdString();
        if (shuffle_->isChecked()) w["shuffle"] = true;
    } else {
        w["builtin"] = builtin_->currentText().toStdString();
    }
    w["mode"] = mode_->currentText().toStdString();
    if (!defines_->text().trimmed().isEmpty()) w["define"] = settingsJson(defines_->text());
    j["workload"] = w;
    if (!seed_->text().isEmpty()) {
        try {
            j["seed"] = std::stoull(seed_->text().toStdString());
        } catch (const std::exception&) {
            j["seed"] = seed_->text().toStdString();  // too large: the plan parser names it
        }
    }
    j["series"] = nlohmann::json::array();
    for (int r = 0; r < series_->rowCount(); ++r) {
        nlohmann::json s;
        auto text = [&](int c) { return series_->item(r, c) ? series_->item(r, c)->text().trimmed() : QString(); };
        s["label"] = text(Label).toStdString();
        if (!text(Placement).isEmpty()) s["placement"] = text(Placement).toStdString();
        if (series_->item(r, Separate) && series_->item(r, Separate)->checkState() == Qt::Checked) s["separate"] = true;
        if (!text(Settings).isEmpty()) s["settings"] = settingsJson(text(Settings));
        j["series"].push_back(s);
    }
    j["clients"] = clients_->text().toStdString();
    switch (threadsRule_->currentIndex()) {
    case 0: j["threads"] = "pus"; break;
    case 1: j["threads"] = "clients"; break;
    default: j["threads"] = threadsFixed_->value();
    }
    if (length_->currentIndex() == 0) {
        j["duration"] = duration_->value();
        if (warmup_->value() > 0) j["warmup"] = warmup_->value();
    } else {
        j["transactions"] = transactions_->value();
    }
    j["repetitions"] = repetitions_->value();
    j["order"] = order_->currentText().toStdString();
    j["data"] = {{"scale", scale_->value()}};
    return j;
}

bool SetupPage::setPlanJson(const nlohmann::json& j) {
    try {
        SweepPlan p = parsePlan(j);
        loaded_ = j;
        embedded_->setChecked(p.embedded());
        remote_->setChecked(!p.embedded());
        if (p.dataDir) dataDir_->setText(QString::fromStdString(p.dataDir->string()));
        conninfo_->setText(QString::fromStdString(p.conninfo));
        if (!p.builtins.empty())  // "select-only@3": the first script, without its weight
            builtin_->setCurrentText(QString::fromStdString(p.builtins[0].substr(0, p.builtins[0].find('@'))));
        if (!p.files.empty()) builtin_->setCurrentIndex(3), scriptFile_->setText(QString::fromStdString(p.files[0]));
        if (!p.replay.empty()) builtin_->setCurrentIndex(4), scriptFile_->setText(QString::fromStdString(p.replay));
        shuffle_->setChecked(p.shuffle);
        QStringList defines;
        for (const auto& d : p.defines) defines << QString::fromStdString(d);
        defines_->setText(defines.join(QStringLiteral(", ")));
        seed_->setText(p.seed ? QString::number(*p.seed) : QString());
        length_->setCurrentIndex(p.transactionsPerClient > 0 ? 1 : 0);
        if (p.transactionsPerClient > 0) transactions_->setValue(static_cast<int>(p.transactionsPerClient));
        mode_->setCurrentText(QString::fromLatin1(queryModeName(p.mode)));
        scale_->setValue(static_cast<int>(p.scale));
        clients_->setText(j["clients"].is_string() ? QString::fromStdString(j["clients"].get<std::string>())
                                                   : QString::fromStdString(j["clients"].dump()).remove('[').remove(']'));
        threadsRule_->setCurrentIndex(p.threads.kind == ThreadsRule::Kind::PerPu ? 0 : p.threads.kind == ThreadsRule::Kind::PerClient ? 1 : 2);
        threadsFixed_->setValue(p.threads.count);
        if (p.durationS > 0) duration_->setValue(p.durationS);
        warmup_->setValue(p.warmupS);
        repetitions_->setValue(p.repetitions);
        order_->setCurrentIndex(p.interleaved ? 0 : 1);
        series_->setRowCount(0);
        for (const auto& s : p.series) {
            QString settings;
            for (const auto& st : s.settings)
                settings += (settings.isEmpty() ? "" : ", ") + QString::fromStdString(st.name + "=" + st.value);
            addSeries(QString::fromStdString(s.label), QString::fromStdString(s.placement), settings);
        }
        QStringList kept = keptMembers();
        kept_->setText(tr("This plan also sets what the form has no field for; it is kept, run and saved with the plan: %1")
                           .arg(kept.join(QStringLiteral(", "))));
        kept_->setVisible(!kept.isEmpty());
        revalidate();
        return true;
    } catch (const std::exception&) {
        return false;  // a stale or foreign plan: keep the defaults
    }
}

QWidget* SetupPage::fieldFor(const QString& path) const {
    if (path.startsWith(QLatin1String("$.clients"))) return clients_;
    if (path.startsWith(QLatin1String("$.duration"))) return duration_;
    if (path.startsWith(QLatin1String("$.warmup"))) return warmup_;
    if (path.startsWith(QLatin1String("$.repetitions"))) return repetitions_;
    if (path.startsWith(QLatin1String("$.target.conninfo"))) return conninfo_;
    if (path.startsWith(QLatin1String("$.target"))) return dataDir_;
    if (path.startsWith(QLatin1String("$.workload.files")) || path.startsWith(QLatin1String("$.workload.replay")) ||
        path.startsWith(QLatin1String("$.workload.mode")))
        return path.startsWith(QLatin1String("$.workload.mode")) ? static_cast<QWidget*>(mode_) : scriptFile_;
    if (path.startsWith(QLatin1String("$.transactions"))) return transactions_;
    if (path.startsWith(QLatin1String("$.workload.define"))) return defines_;
    if (path.startsWith(QLatin1String("$.seed"))) return seed_;
    if (path.startsWith(QLatin1String("$.series"))) return series_;
    if (path.startsWith(QLatin1String("$.threads"))) return threadsFixed_;
    return nullptr;
}

void SetupPage::revalidate() {
    for (QWidget* w : marked_) w->setStyleSheet(QString()), w->setToolTip(QString());
    marked_.clear();
    problems_.clear();
    plan_.reset();
    nlohmann::json j = planJson();
    // Checks the form makes before the plan parser sees it: what a user can get wrong here.
    bool timed = length_->currentIndex() == 0;
    duration_->setEnabled(timed);
    warmup_->setEnabled(timed);
    transactions_->setEnabled(!timed);
    shuffle_->setEnabled(builtin_->currentIndex() == 4);
    if (timed && duration_->value() <= 0) problems_ << tr("$.duration: the duration must be more than 0 seconds");
    if (!timed && transactions_->value() <= 0) problems_ << tr("$.transactions: at least one transaction per client");
    if (series_->rowCount() == 0) problems_ << tr("$.series: add at least one series");
    if (repetitions_->value() < 1) problems_ << tr("$.repetitions: at least one repetition");
    if (remote_->isChecked() && conninfo_->text().trimmed().isEmpty()) problems_ << tr("$.target.conninfo: give a connection string");
    if (problems_.isEmpty()) {
        try {
            plan_ = parsePlan(j);
        } catch (const std::exception& e) {
            problems_ << QString::fromStdString(e.what());
        }
        if (plan_ && builtin_->currentIndex() >= 3) {
            try {
                plan_->workload();  // reads and checks the script or replay file
            } catch (const std::exception& e) {
                problems_ << (builtin_->currentIndex() == 3 ? QStringLiteral("$.workload.files: ") : QStringLiteral("$.workload.replay: ")) +
                                 QString::fromStdString(e.what());
                plan_.reset();
            }
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
        if (QWidget* w = fieldFor(p.section(QLatin1Char(':'), 0, 0))) {
            w->setStyleSheet(QString::fromLatin1(kInvalidStyle));
            w->setToolTip(forTheForm(p));
            marked_.append(w);
        }
        p = forTheForm(p);
    }
    problemsLabel_->setText(problems_.join(QLatin1Char('\n')));
    start_->setEnabled(plan_.has_value());
    if (plan_) {
        size_t runs = plan_->series.size() * plan_->clients.size() * static_cast<size_t>(plan_->repetitions);
        // Connecting, sampling and recording added about 0.3 s per run in a 12-run sweep here.
        double perRun = plan_->durationS + plan_->pauseS + 0.5;
        if (plan_->durationS == 0) perRun = 0;
        int secs = static_cast<int>(static_cast<double>(runs) * perRun);
        // Seconds for short sweeps (12 short runs are not "about 0 h 0 min"), minutes, hours.
        QString length = secs < 60     ? tr("%1 s").arg(secs)
                         : secs < 3600 ? tr("%1 min %2 s").arg(secs / 60).arg(secs % 60, 2, 10, QLatin1Char('0'))
                                       : tr("%1 h %2 min").arg(secs / 3600).arg(secs / 60 % 60, 2, 10, QLatin1Char('0'));
        estimate_->setText(plan_->durationS > 0 ? tr("%1 runs, about %2").arg(runs).arg(length)
                                                : tr("%1 runs of %2 transactions per client (time depends on the server)")
                                                      .arg(runs)
                                                      .arg(plan_->transactionsPerClient));
    } else {
        estimate_->setText(tr("plan not valid yet"));
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
            } else {
                scalelab::Placement pl = place(machine_, parsePlacement(p, separate && separate->checkState() == Qt::Checked));
                text = QString::fromStdString(pl.server.toList() + " / " + pl.client.toList());
            }
        } catch (const std::exception& e) {
            text = QString::fromStdString(e.what());
            problems << QStringLiteral("$.series[%1].placement: %2").arg(r).arg(text);
        }
        if (series_->item(r, Pus)) series_->item(r, Pus)->setText(text);
    }
    return problems;
}

} // namespace scalelab::ui
