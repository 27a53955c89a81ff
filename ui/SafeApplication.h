#pragma once
// The application object of the window: an exception that would leave a slot or an event
// handler (a file that went away, a refused value) becomes a message box, and the app keeps
// working; Qt must never unwind through its event loop.
#include <QApplication>

namespace scalelab::ui {

class SafeApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override;
};

} // namespace scalelab::ui
