#pragma once
// The mouse wheel over a spin box or a drop-down that does not have the focus scrolls the page
// instead of changing the value (issue 32.1): a new user scrolling the Setup page to reach Start
// changed scale, duration, repetitions and order without seeing it. A field takes the wheel
// once it has the focus (a click, Tab), as in browsers' forms.
//
// Two parts, because real input takes another road than events a program sends (issue 61.1):
// for a wheel event that came from the window system, QApplication first gives the focus to the
// widget under the pointer when its focus policy has Qt::WheelFocus (spin boxes' and drop-downs'
// default), and only then do event filters see the event, so "has it the focus?" was always yes.
// Every spin box and drop-down therefore has its focus policy made Qt::StrongFocus (click and
// Tab, not the wheel) when it is polished, and the filter then sends an unfocused field's wheel
// to the scroll area around it.
#include <QObject>

class QWidget;

namespace scalelab::ui {

class WheelGuard : public QObject {
public:
    using QObject::QObject;
    // Takes the wheel focus from the fields already polished under `root` (the filter does it for
    // every field polished after it was installed).
    static void takeWheelFocus(QWidget* root);

protected:
    // Installed on the application: sees every wheel event before its widget does.
    bool eventFilter(QObject* watched, QEvent* event) override;
};

} // namespace scalelab::ui
