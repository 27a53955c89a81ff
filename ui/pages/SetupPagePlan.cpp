// SetupPage's form as a sweep plan (JSON) and back; members of a loaded plan that the form has
// no field for are kept, listed and written back.
#include "pages/SetupPage.h"
#include "pages/SetupPageForm.h"

#include "load/script/Workload.h"
#include "server/EmbeddedServer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>

#include <algorithm>

namespace scalelab::ui {

using namespace setupform;

nlohmann::json setupform::settingsJson(const QString& text) {
    nlohmann::json j = nlohmann::json::object();
    for (const QString& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QString t = item.trimmed();
        int eq = t.indexOf(QLatin1Char('='));
        if (eq < 0) j[t.toStdString()] = nullptr;  // the parser names it
        else j[t.left(eq).trimmed().toStdString()] = t.mid(eq + 1).trimmed().toStdString();
    }
    return j;
}

namespace {
// What the form writes; anything else in a given plan is the plan's own and is kept.
const char* const kFormMembers[] = {"version", "target", "workload", "series", "clients", "threads", "duration",
                                    "warmup", "transactions", "repetitions", "order", "data", "seed", "load_hosts",
                                    "diagnostics"};
const char* const kFormDiagnostics[] = {"waits", "cpu_profile", "profile_hz"};
const char* const kFormLoadHosts[] = {"hosts"};
const char* const kFormWorkload[] = {"kind", "builtin", "files", "replay", "shuffle", "mode", "define", "rate"};
const char* const kFormTarget[] = {"data_dir", "conninfo", "metrics_host", "host"};
const char* const kFormMetricsHost[] = {"host"};
const char* const kFormSeries[] = {"label", "placement", "separate", "settings"};
const char* const kFormData[] = {"scale", "warehouses"};

// A field that holds one number or a list ("10", "10, 100", "10-1000 x10") as the plan's JSON:
// a number when it is one (a rate may have a fraction), else the text, which the plan parser
// reads as a list or names as wrong. An empty field is an empty text.
nlohmann::json numberOrList(const QString& field, bool fraction) {
    QString t = field.trimmed();
    static const QRegularExpression whole(QStringLiteral("^\\d{1,15}$"));
    static const QRegularExpression decimal(QStringLiteral("^(\\d{1,15}\\.\\d*|\\.\\d+)$"));
    if (whole.match(t).hasMatch()) return t.toLongLong();
    if (fraction && decimal.match(t).hasMatch()) return t.toDouble();
    return t.toStdString();
}

// A plan's number or list as the field shows it: "10", "0.5", "10, 100", or the plan's text.
QString numberOrListText(const nlohmann::json& v) {
    if (v.is_string()) return QString::fromStdString(v.get<std::string>());
    if (v.is_number_integer()) return QString::number(v.get<int64_t>());
    if (v.is_number()) return QString::number(v.get<double>(), 'g', 15);  // 5000000, not 5e+06
    if (!v.is_array()) return QString();
    QStringList items;
    for (const auto& item : v) items << numberOrListText(item);
    return items.join(QStringLiteral(", "));
}

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
    if (loaded_.contains("target") && loaded_["target"].is_object() && loaded_["target"].contains("metrics_host"))
        list(loaded_["target"]["metrics_host"], QStringLiteral("$.target.metrics_host."), kFormMetricsHost);
    if (loaded_.contains("target") && loaded_["target"].is_object() && loaded_["target"].contains("host"))
        list(loaded_["target"]["host"], QStringLiteral("$.target.host."), kFormMetricsHost);
    if (loaded_.contains("data")) list(loaded_["data"], QStringLiteral("$.data."), kFormData);
    if (loaded_.contains("load_hosts")) list(loaded_["load_hosts"], QStringLiteral("$.load_hosts."), kFormLoadHosts);
    if (loaded_.contains("diagnostics")) list(loaded_["diagnostics"], QStringLiteral("$.diagnostics."), kFormDiagnostics);
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
    // The hosts are the form's; how they are reached (ssh_command, the program's path) is the
    // plan's, kept while there are hosts.
    if (j.contains("load_hosts") && loaded_.contains("load_hosts") && loaded_["load_hosts"].is_object()) {
        nlohmann::json hosts = {{"hosts", j["load_hosts"]}};
        keepOthers(hosts, loaded_["load_hosts"], kFormLoadHosts);
        j["load_hosts"] = hosts;
    }
    // The metrics host is the form's; how it is reached is the plan's, as for load hosts.
    if (j["target"].contains("metrics_host") && loaded_.contains("target") && loaded_["target"].is_object() &&
        loaded_["target"].contains("metrics_host") && loaded_["target"]["metrics_host"].is_object()) {
        nlohmann::json host = {{"host", j["target"]["metrics_host"]}};
        keepOthers(host, loaded_["target"]["metrics_host"], kFormMetricsHost);
        j["target"]["metrics_host"] = host;
    }
    // The server host likewise (its ssh_command, address, the program's path are the plan's).
    if (j["target"].contains("host") && loaded_.contains("target") && loaded_["target"].is_object() &&
        loaded_["target"].contains("host") && loaded_["target"]["host"].is_object()) {
        nlohmann::json host = {{"host", j["target"]["host"]}};
        keepOthers(host, loaded_["target"]["host"], kFormMetricsHost);
        j["target"]["host"] = host;
    }
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
    std::string serverHost = serverHost_->text().trimmed().toStdString();
    if (embedded_->isChecked()) {
        j["target"] = nlohmann::json::object();
        // This machine's default data directory means nothing on a server host: there, the
        // agent's own default is used unless the field names another.
        std::string dir = dataDir_->text().toStdString();
        if (serverHost.empty() || dir != defaultDataDir().string()) j["target"]["data_dir"] = dir;
        if (!serverHost.empty()) j["target"]["host"] = serverHost;
    } else {
        j["target"] = {{"conninfo", conninfo_->text().trimmed().toStdString()}};
    }
    if (remote_->isChecked() && !metricsHost_->text().trimmed().isEmpty())
        j["target"]["metrics_host"] = metricsHost_->text().trimmed().toStdString();
    nlohmann::json w;
    if (builtin_->currentIndex() == 3) {
        w["files"] = {scriptFile_->text().toStdString()};
    } else if (builtin_->currentIndex() == 4) {
        w["replay"] = scriptFile_->text().toStdString();
        if (shuffle_->isChecked()) w["shuffle"] = true;
    } else if (builtin_->currentIndex() == kTproccItem) {
        w["kind"] = "tprocc";
    } else {
        w["builtin"] = builtin_->currentText().toStdString();
    }
    w["mode"] = mode_->currentText().toStdString();
    if (!defines_->text().trimmed().isEmpty()) w["define"] = settingsJson(defines_->text());
    if (!rates_->text().trimmed().isEmpty()) w["rate"] = numberOrList(rates_->text(), true);
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
        if (warmup_->value() != 0) j["warmup"] = warmup_->value();
    } else {
        j["transactions"] = transactions_->value();
    }
    j["repetitions"] = repetitions_->value();
    j["order"] = order_->currentText().toStdString();
    if (builtin_->currentIndex() == kTproccItem) j["data"] = {{"warehouses", warehouses_->value()}};
    else j["data"] = {{"scale", numberOrList(scales_->text(), false)}};
    nlohmann::json hosts = nlohmann::json::array();
    for (const QString& h : loadHosts_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
        hosts.push_back(h.toStdString());
    if (!hosts.empty()) j["load_hosts"] = hosts;
    // The defaults (waits on, no CPU profile) are not written; a loaded plan's profile_hz is kept.
    nlohmann::json diagnostics = nlohmann::json::object();
    if (!waits_->isChecked()) diagnostics["waits"] = false;
    if (cpuProfile_->isChecked()) {
        diagnostics["cpu_profile"] = true;
        if (loaded_.contains("diagnostics") && loaded_["diagnostics"].is_object() && loaded_["diagnostics"].contains("profile_hz"))
            diagnostics["profile_hz"] = loaded_["diagnostics"]["profile_hz"];
    }
    if (!diagnostics.empty()) j["diagnostics"] = diagnostics;
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
        metricsHost_->setText(p.metricsHost ? QString::fromStdString(p.metricsHost->host) : QString());
        serverHost_->setText(p.serverHost ? QString::fromStdString(p.serverHost->host) : QString());
        if (p.serverHost && !p.dataDir) dataDir_->setText(QString::fromStdString(defaultDataDir().string()));
        if (!p.builtins.empty())  // "select-only@3": the first script, without its weight
            builtin_->setCurrentText(QString::fromStdString(p.builtins[0].substr(0, p.builtins[0].find('@'))));
        if (!p.files.empty()) builtin_->setCurrentIndex(3), scriptFile_->setText(QString::fromStdString(p.files[0]));
        if (!p.replay.empty()) builtin_->setCurrentIndex(4), scriptFile_->setText(QString::fromStdString(p.replay));
        if (p.tprocc()) builtin_->setCurrentIndex(kTproccItem);
        warehouses_->setValue(p.warehouses.value_or(1));
        shuffle_->setChecked(p.shuffle);
        waits_->setChecked(p.waits);
        cpuProfile_->setChecked(p.cpuProfile);
        QStringList defines;
        for (const auto& d : p.defines) defines << QString::fromStdString(d);
        defines_->setText(defines.join(QStringLiteral(", ")));
        seed_->setText(p.seed ? QString::number(*p.seed) : QString());
        QStringList hosts;
        if (p.loadHosts)
            for (const auto& h : p.loadHosts->hosts) hosts << QString::fromStdString(h);
        loadHosts_->setText(hosts.join(QStringLiteral(", ")));
        length_->setCurrentIndex(p.transactionsPerClient > 0 ? 1 : 0);
        if (p.transactionsPerClient > 0) transactions_->setValue(static_cast<int>(p.transactionsPerClient));
        mode_->setCurrentText(QString::fromLatin1(queryModeName(p.mode)));
        // As the plan writes them ("10-1000 x10" stays a range); a plan without them, the defaults.
        const nlohmann::json* scale = nullptr;
        if (j.contains("data") && j["data"].is_object() && j["data"].contains("scale")) scale = &j["data"]["scale"];
        scales_->setText(scale ? numberOrListText(*scale) : QString::number(p.scales.front()));
        const nlohmann::json* rate = nullptr;
        if (j.contains("workload") && j["workload"].is_object() && j["workload"].contains("rate")) rate = &j["workload"]["rate"];
        rates_->setText(rate && !(rate->is_number() && rate->get<double>() == 0) ? numberOrListText(*rate) : QString());
        clients_->setText(j["clients"].is_string() ? QString::fromStdString(j["clients"].get<std::string>())
                                                   : QString::fromStdString(j["clients"].dump()).remove(QLatin1Char('[')).remove(QLatin1Char(']')));
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
                settings += (settings.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(st.name + "=" + st.value);
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

} // namespace scalelab::ui
