#pragma once
// Answers the next message box a window shows, as a user would: records what it says and
// which buttons it offers, then clicks the button named (or closes it when there is none).
// The window's own questions are modal (exec): the answer is given from the event loop.
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>


namespace scalelab::test {

struct SeenMessageBox {
    QString text;         // the text and the informative text, a line apart
    QStringList buttons;  // in the order the box has them
    bool seen = false;
};

inline void answerNextMessageBox(const QString& button, SeenMessageBox* seen) {
    auto* timer = new QTimer(qApp);  // polls until the box is up; gone after answering
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, button, seen] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) return;
        timer->stop();
        timer->deleteLater();
        seen->text = box->text() + QLatin1Char('\n') + box->informativeText();
        for (auto* b : box->buttons()) seen->buttons << b->text();
        seen->seen = true;
        for (auto* b : box->buttons())
            if (b->text() == button) return b->click();
        box->reject();
    });
    timer->start();
}

} // namespace scalelab::test
