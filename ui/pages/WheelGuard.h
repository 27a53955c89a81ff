#pragma once
// The mouse wheel over a spin box or a drop-down that does not have the focus scrolls the page
// instead of changing the value (issue 32.1): a new user scrolling the Setup page to reach Start
// changed scale, duration, repetitions and order without seeing it. A field takes the wheel
// once it has the focus (a click, Tab), as in browsers' forms.
#include <QObject>

namespace scalelab::ui {

class WheelGuard : public QObject {
public:
    using QObject::QObject;

protected:
    // Installed on the application: sees every wheel event before its widget does.
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace scalelab::ui
