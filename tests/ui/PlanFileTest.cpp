// The window saves the Setup page's plan as a JSON file that `scalelab sweep` reads, and opens
// one: a round trip keeps the plan, a bad file says why, and no password is written.
#include "pages/MainWindow.h"
#include "pages/SetupPage.h"
#include "server/EmbeddedServer.h"

#include <QFile>
#include <QLineEdit>
#include <QStandardPaths>
#include <QtTest>

#include <fstream>

using namespace scalelab;
using namespace scalelab::ui;

class PlanFileTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

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
