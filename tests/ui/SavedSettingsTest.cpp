// What the window writes between sessions holds no password: a connection string typed with
// one (here a URI) is refused on the Setup page, and the plan kept in the settings file on quit
// has the connection without it. A first start (no experiment yet) offers the example plans;
// once an experiment was made or opened, the window starts without them.
#include "FreshSettings.h"
#include "pages/MainWindow.h"
#include "pages/SetupPage.h"
#include "pages/ExamplesBox.h"

#include <QFile>
#include <QLineEdit>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace scalelab::ui;

class SavedSettingsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { scalelab::test::startWithFreshSettings(); }

    void aFirstStartOffersTheExamplesAndALaterOneDoesNot() {
        QSettings().remove(QStringLiteral("files/recent"));
        {
            MainWindow window;
            QVERIFY(!window.setupPage()->examplesBox()->isHidden());
            QCOMPARE(window.setupPage()->examplesBox()->buttons().size(), 3);
        }
        QSettings().setValue(QStringLiteral("files/recent"), QStringList{QStringLiteral("/tmp/earlier.slab")});
        {
            MainWindow window;
            QVERIFY(window.setupPage()->examplesBox()->isHidden());
        }
        QSettings().remove(QStringLiteral("files/recent"));
    }

    void aPasswordTypedOnTheSetupPageIsNeverSaved() {
        const QString secret = QStringLiteral("Kn0wn-S3cret-4711");
        {
            MainWindow window;
            SetupPage* setup = window.setupPage();
            setup->remoteRadio()->setChecked(true);
            setup->conninfoEdit()->setText(QStringLiteral("postgresql://bench:%1@db1:5433/bench").arg(secret));
            QVERIFY2(setup->problems().join(QLatin1Char('\n')).contains(QStringLiteral("holds a password")),
                     qPrintable(setup->problems().join(QLatin1Char('\n'))));
        }  // the window saves its settings as it closes
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
        QByteArray written = file.readAll();
        QVERIFY2(!written.isEmpty(), "the window saved no settings");
        QVERIFY2(!written.contains(secret.toUtf8()), written.constData());
        QVERIFY2(written.contains("host=db1"), written.constData());  // the connection itself is kept
    }
};

QTEST_MAIN(SavedSettingsTest)
#include "SavedSettingsTest.moc"
