// The window saves the Setup page's plan as a JSON file that `scalelab sweep` reads, and opens
// one: a round trip keeps the plan, a bad file says why, and no password is written.
#include "FreshSettings.h"
#include "pages/MainWindow.h"
#include "pages/SetupPage.h"
#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

#include <QFile>
#include <QRadioButton>
#include <QDoubleSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QtTest>

#include <fstream>

using namespace scalelab;
using namespace scalelab::ui;

class PlanFileTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void aSavedPlanOpensAsTheSamePlanAndRunsFromTheCommandLine() {
        TempDir dir("scalelab-planfile");
        QString path = QString::fromStdString((dir.path() / "plan.json").string());
        MainWindow window;
        window.setupPage()->clientsEdit()->setText(QStringLiteral("2-8 +2"));
        window.setupPage()->addSeries(QStringLiteral("patched"), QStringLiteral("cores:1"), QStringLiteral("work_mem=8MB"));
        QCOMPARE(window.savePlanTo(path), QString());
        std::ifstream in(path.toStdString());
        nlohmann::json saved = nlohmann::json::parse(in);
        QCOMPARE(saved, window.setupPage()->planJson());
        QCOMPARE(parsePlan(saved).clients, (std::vector<int>{2, 4, 6, 8}));

        MainWindow other;
        QCOMPARE(other.loadPlanFrom(path), QString());
        QCOMPARE(other.setupPage()->planJson(), saved);
    }

    // What the form has no field for is the plan's own: kept, listed, run and saved.
    void membersTheFormDoesNotShowAreKeptAndSaid() {
        TempDir dir("scalelab-planfile");
        QString in = QString::fromStdString((dir.path() / "in.json").string());
        QString out = QString::fromStdString((dir.path() / "out.json").string());
        std::ofstream(in.toStdString()) << R"({"version": 1, "seed": 7,
            "workload": {"builtin": ["select-only@3", "tpcb-like@1"], "rate": 50, "define": {"aid": 1}},
            "series": [{"label": "A", "placement": "cores:1", "data_dir": "/tmp/other-cluster"}, {"label": "B"}],
            "clients": [1, 2], "duration": 5})";
        MainWindow window;
        QCOMPARE(window.loadPlanFrom(in), QString());
        SetupPage* setup = window.setupPage();
        QStringList kept = setup->keptMembers();
        QCOMPARE(kept, QStringList{QStringLiteral("$.series[A].data_dir")});
        // -D variables, the seed and the rate have fields of their own.
        QCOMPARE(setup->ratesEdit()->text(), QStringLiteral("50"));
        QCOMPARE(setup->definesEdit()->text(), QStringLiteral("aid=1"));
        QCOMPARE(setup->seedEdit()->text(), QStringLiteral("7"));
        QVERIFY(!setup->keptLabel()->isHidden());
        QVERIFY(setup->keptLabel()->text().contains(QStringLiteral("$.series[A].data_dir")));

        setup->durationSpin()->setValue(9);  // a change in the form keeps them
        QCOMPARE(window.savePlanTo(out), QString());
        std::ifstream saved(out.toStdString());
        nlohmann::json j = nlohmann::json::parse(saved);
        QCOMPARE(j["seed"], nlohmann::json(7));
        QCOMPARE(j["workload"]["rate"], nlohmann::json(50));
        QCOMPARE(j["workload"]["define"]["aid"], nlohmann::json("1"));  // as the field says it
        QCOMPARE(j["workload"]["builtin"], (nlohmann::json{"select-only@3", "tpcb-like@1"}));
        QCOMPARE(j["series"][0]["data_dir"], nlohmann::json("/tmp/other-cluster"));
        QCOMPARE(j["duration"], nlohmann::json(9.0));
        // And the plan the Start button runs has them.
        QVERIFY(setup->plan().has_value());
        QCOMPARE(setup->plan()->rates, std::vector<double>{50.0});
        {
            // A list of rates (an offered-load sweep) is shown as the plan writes it and run.
            QString list = QString::fromStdString((dir.path() / "rates.json").string());
            std::ofstream(list.toStdString()) << R"({"version": 1, "workload": {"rate": "100-400 x2"},
                "series": [{"label": "A"}], "clients": [2], "duration": 5})";
            MainWindow other;
            QCOMPARE(other.loadPlanFrom(list), QString());
            QCOMPARE(other.setupPage()->keptMembers(), QStringList());
            QCOMPARE(other.setupPage()->ratesEdit()->text(), QStringLiteral("100-400 x2"));
            QVERIFY(other.setupPage()->plan().has_value());
            QCOMPARE(other.setupPage()->plan()->rates, (std::vector<double>{100, 200, 400}));
        }
        QCOMPARE(setup->plan()->series[0].dataDir->string(), std::string("/tmp/other-cluster"));
        QCOMPARE(setup->plan()->builtins.size(), size_t{2});

        // Another script chosen in the form: the others no longer run with it.
        setup->builtinCombo()->setCurrentText(QStringLiteral("tpcb-like"));
        QCOMPARE(setup->planJson()["workload"]["builtin"], nlohmann::json("tpcb-like"));
        QCOMPARE(setup->planJson()["workload"]["rate"], nlohmann::json(50));

        // The fields: a bad variable name is named at its field; an empty seed means a new one.
        setup->definesEdit()->setText(QStringLiteral("1x=3"));
        QVERIFY2(setup->problems().join(QLatin1Char(' ')).contains(QStringLiteral("Variables (-D) 1x")),
                 qPrintable(setup->problems().join(QLatin1Char(' '))));
        setup->definesEdit()->setText(QStringLiteral("aid=5, delta=-3"));
        QCOMPARE(setup->plan()->defines, (std::vector<std::string>{"aid=5", "delta=-3"}));
        setup->seedEdit()->setText(QString());
        QVERIFY(!setup->planJson().contains("seed"));
        setup->seedEdit()->setText(QStringLiteral("42"));
        QCOMPARE(setup->plan()->seed, std::optional<uint64_t>(42));
    }

    // Load hosts: the field shows a plan's hosts and writes them; how they are reached
    // (ssh_command, the program's path) is the plan's and kept; a bad host is named there.
    void loadHostsAreAFieldAndTheirSshSettingsAreKept() {
        TempDir dir("scalelab-planfile");
        QString in = QString::fromStdString((dir.path() / "hosts.json").string());
        std::ofstream(in.toStdString()) << R"({"version": 1, "series": [{"label": "A"}], "clients": [2, 4], "duration": 5,
            "target": {"conninfo": "host=db1 dbname=bench"},
            "load_hosts": {"hosts": ["local", "bench@client2"], "ssh_command": "ssh -F /etc/bench/ssh_config"}})";
        MainWindow window;
        QCOMPARE(window.loadPlanFrom(in), QString());
        SetupPage* setup = window.setupPage();
        QCOMPARE(setup->loadHostsEdit()->text(), QStringLiteral("local, bench@client2"));
        QCOMPARE(setup->keptMembers(), QStringList{QStringLiteral("$.load_hosts.ssh_command")});
        setup->loadHostsEdit()->setText(QStringLiteral("bench@client1 bench@client3"));
        QVERIFY(setup->plan().has_value());
        QCOMPARE(setup->plan()->loadHosts->hosts, (std::vector<std::string>{"bench@client1", "bench@client3"}));
        QCOMPARE(setup->plan()->loadHosts->sshCommand, (std::vector<std::string>{"ssh", "-F", "/etc/bench/ssh_config"}));
        QCOMPARE(setup->planJson()["load_hosts"]["ssh_command"], nlohmann::json("ssh -F /etc/bench/ssh_config"));

        setup->loadHostsEdit()->setText(QStringLiteral("-oProxyCommand=x"));
        QVERIFY2(setup->problems().join(QLatin1Char(' ')).contains(QStringLiteral("Load hosts")),
                 qPrintable(setup->problems().join(QLatin1Char(' '))));
        QVERIFY2(!setup->loadHostsEdit()->styleSheet().isEmpty(), "the field is marked");

        setup->loadHostsEdit()->clear();  // the clients run here again
        QVERIFY(setup->plan().has_value());
        QVERIFY(!setup->plan()->loadHosts.has_value());
        QVERIFY(!setup->planJson().contains("load_hosts"));
    }

    // The server's machine (target.metrics_host, docs/hosts.md): a field of a server of yours,
    // its ssh settings kept from the plan, a bad host named by the field's label, and nothing
    // written for the embedded server (measured here).
    void theServersMachineIsAFieldOfAServerOfYours() {
        TempDir dir("scalelab-planfile");
        QString in = QString::fromStdString((dir.path() / "metrics.json").string());
        std::ofstream(in.toStdString()) << R"({"version": 1, "series": [{"label": "A"}], "clients": [2, 4], "duration": 5,
            "target": {"conninfo": "host=db1 dbname=bench",
                       "metrics_host": {"host": "bench@db1", "ssh_command": "ssh -F /etc/bench/ssh_config"}}})";
        MainWindow window;
        QCOMPARE(window.loadPlanFrom(in), QString());
        SetupPage* setup = window.setupPage();
        QCOMPARE(setup->metricsHostEdit()->text(), QStringLiteral("bench@db1"));
        QVERIFY(setup->metricsHostEdit()->isEnabled());
        QCOMPARE(setup->keptMembers(), QStringList{QStringLiteral("$.target.metrics_host.ssh_command")});
        setup->metricsHostEdit()->setText(QStringLiteral("bench@db2"));
        QVERIFY(setup->plan().has_value());
        QCOMPARE(setup->plan()->metricsHost->host, std::string("bench@db2"));
        QCOMPARE(setup->plan()->metricsHost->sshCommand, (std::vector<std::string>{"ssh", "-F", "/etc/bench/ssh_config"}));

        setup->metricsHostEdit()->setText(QStringLiteral("-oProxyCommand=x"));
        QVERIFY2(setup->problems().join(QLatin1Char(' ')).contains(QStringLiteral("Server's machine")),
                 qPrintable(setup->problems().join(QLatin1Char(' '))));
        QVERIFY2(!setup->metricsHostEdit()->styleSheet().isEmpty(), "the field is marked");

        setup->metricsHostEdit()->clear();
        QVERIFY(setup->plan().has_value());
        QVERIFY(!setup->plan()->metricsHost.has_value());
        QVERIFY(!setup->planJson()["target"].contains("metrics_host"));

        setup->metricsHostEdit()->setText(QStringLiteral("bench@db1"));
        setup->embeddedRadio()->setChecked(true);  // the embedded server: measured here, the field is off
        QVERIFY(!setup->metricsHostEdit()->isEnabled());
        QVERIFY(!setup->planJson()["target"].contains("metrics_host"));
    }

    // The server host (target.host, docs/hosts.md): a field of the embedded server, its ssh
    // settings and address kept from the plan, this machine's default data directory not sent
    // there, a bad host named by the field's label, off for a server of yours.
    void theServerHostIsAFieldOfTheEmbeddedServer() {
        TempDir dir("scalelab-planfile");
        QString in = QString::fromStdString((dir.path() / "host.json").string());
        std::ofstream(in.toStdString()) << R"({"version": 1, "series": [{"label": "A"}], "clients": [2], "duration": 5,
            "target": {"host": {"host": "bench@db1", "ssh_command": "ssh -p 2222", "address": "10.0.0.5"}}})";
        MainWindow window;
        QCOMPARE(window.loadPlanFrom(in), QString());
        SetupPage* setup = window.setupPage();
        QCOMPARE(setup->serverHostEdit()->text(), QStringLiteral("bench@db1"));
        QVERIFY(setup->serverHostEdit()->isEnabled());
        QStringList kept = setup->keptMembers();
        kept.sort();
        QCOMPARE(kept, (QStringList{QStringLiteral("$.target.host.address"), QStringLiteral("$.target.host.ssh_command")}));
        QVERIFY(setup->plan().has_value());
        QCOMPARE(setup->plan()->serverHost->address, std::string("10.0.0.5"));
        QVERIFY2(!setup->planJson()["target"].contains("data_dir"), setup->planJson().dump().c_str());

        setup->serverHostEdit()->setText(QStringLiteral("-oProxyCommand=x"));
        QVERIFY2(setup->problems().join(QLatin1Char(' ')).contains(QStringLiteral("Server host")),
                 qPrintable(setup->problems().join(QLatin1Char(' '))));

        setup->serverHostEdit()->clear();  // this machine again: its data directory named
        QVERIFY(setup->plan().has_value());
        QVERIFY(!setup->plan()->serverHost.has_value());
        QVERIFY(setup->planJson()["target"].contains("data_dir"));

        setup->serverHostEdit()->setText(QStringLiteral("bench@db1"));
        setup->remoteRadio()->setChecked(true);
        QVERIFY(!setup->serverHostEdit()->isEnabled());
        QVERIFY(!setup->planJson()["target"].contains("host"));
    }

    void aBadPlanFileSaysWhatAndWhere() {
        TempDir dir("scalelab-planfile");
        std::string notJson = (dir.path() / "notjson.json").string(), badClients = (dir.path() / "bad.json").string();
        std::ofstream(notJson) << "{\"version\": 1,";
        std::ofstream(badClients) << R"({"version": 1, "series": [{"label": "A"}], "clients": "1,,x", "duration": 5})";
        MainWindow window;
        nlohmann::json before = window.setupPage()->planJson();
        QVERIFY(window.loadPlanFrom(QString::fromStdString(notJson)).contains(QStringLiteral("is not JSON")));
        QString error = window.loadPlanFrom(QString::fromStdString(badClients));
        QVERIFY2(error.contains(QStringLiteral("$.clients")), qPrintable(error));
        QCOMPARE(window.setupPage()->planJson(), before);  // the form is left as it was
        QVERIFY(!window.loadPlanFrom(QString::fromStdString((dir.path() / "missing.json").string())).isEmpty());
    }

    void aSavedPlanHoldsNoPassword() {
        TempDir dir("scalelab-planfile");
        QString path = QString::fromStdString((dir.path() / "plan.json").string());
        MainWindow window;
        window.setupPage()->setPlanJson({{"version", 1},
                                         {"target", {{"conninfo", "host=db1 dbname=bench"}}},
                                         {"series", {{{"label", "A"}}}},
                                         {"clients", {1}},
                                         {"duration", 5}});
        window.setupPage()->conninfoEdit()->setText(QStringLiteral("postgresql://bench:Kn0wn-S3cret@db1/bench"));
        QCOMPARE(window.savePlanTo(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray text = f.readAll();
        QVERIFY2(!text.contains("Kn0wn-S3cret"), text.constData());
        QVERIFY(text.contains("db1"));
    }
};

QTEST_MAIN(PlanFileTest)
#include "PlanFileTest.moc"
