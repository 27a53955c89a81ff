#pragma once
// The window and its pages read experiment files off the GUI thread: these open one and wait
// (spinning the event loop) until it is shown. False when it was not shown within 30 s.
// A signal sent before the call returns (a refusal) is caught too: the spy exists first.
#include "pages/MainWindow.h"
#include "pages/OverviewPage.h"
#include "pages/ResultsPage.h"

#include <QSignalSpy>
#include <QString>
#include <QTest>

namespace scalelab::test {

inline bool openAndWait(ui::MainWindow& window, const QString& path) {
    QSignalSpy opened(&window, &ui::MainWindow::experimentOpened);
    window.openExperiment(path);
    return opened.wait(30000);
}

inline bool loadAndWait(ui::ResultsPage& page, const QString& path) {
    QSignalSpy loaded(&page, &ui::ResultsPage::loaded);
    page.load(path);
    return loaded.wait(30000);
}

// The series of `other` added to the page: "" when added, else why not.
inline QString addAndWait(ui::ResultsPage& page, const QString& other) {
    QSignalSpy added(&page, &ui::ResultsPage::experimentAdded);
    page.addExperiment(other);
    if (added.isEmpty() && !added.wait(30000)) return QStringLiteral("no answer within 30 s");
    return added.first().at(1).toString();
}

// The experiment's note written: "" when written, else why not.
inline QString saveNoteAndWait(ui::OverviewPage& page) {
    QSignalSpy saved(&page, &ui::OverviewPage::noteSaved);
    page.saveNote();
    if (saved.isEmpty() && !saved.wait(30000)) return QStringLiteral("no answer within 30 s");
    return saved.first().at(0).toString();
}

// A window task that answers later (MainWindow::Answer: an import, an export): "" when done,
// else why not. `start` gets the callback to pass on.
template <class Start>
QString answerOf(Start start) {
    bool answered = false;
    QString error;
    start([&answered, &error](const QString& e) {
        error = e;
        answered = true;
    });
    for (int i = 0; i < 3000 && !answered; ++i) QTest::qWait(10);
    return answered ? error : QStringLiteral("no answer within 30 s");
}

} // namespace scalelab::test
