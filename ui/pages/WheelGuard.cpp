#include "pages/WheelGuard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QCoreApplication>
#include <QComboBox>
#include <QEvent>
#include <QLineEdit>
#include <QWidget>

namespace scalelab::ui {
namespace {

bool isField(QWidget* w) { return qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w); }

// The spin box or drop-down a wheel event is for: the field itself, or the line edit inside it.
// (An open drop-down's list is a window of its own and scrolls as usual.)
QWidget* fieldOf(QObject* watched) {
    auto* w = qobject_cast<QWidget*>(watched);
    if (!w) return nullptr;
    if (isField(w)) return w;
    if (qobject_cast<QLineEdit*>(w) && w->parentWidget() && isField(w->parentWidget())) return w->parentWidget();
    return nullptr;
}

void withoutWheelFocus(QWidget* field) {
    if ((field->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) field->setFocusPolicy(Qt::StrongFocus);
}

} // namespace

void WheelGuard::takeWheelFocus(QWidget* root) {
    for (auto* w : root->findChildren<QWidget*>())
        if (isField(w)) withoutWheelFocus(w);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Polish) {
        if (auto* w = qobject_cast<QWidget*>(watched); w && isField(w)) withoutWheelFocus(w);
        return false;
    }
    if (event->type() != QEvent::Wheel) return false;
    QWidget* field = fieldOf(watched);
    if (!field || field->hasFocus()) return false;
    // Not the field's: the scroll area around it gets it (handed on explicitly: QApplication
    // passes an ignored wheel event to the parents only when the window system sent it).
    for (QWidget* up = field->parentWidget(); up; up = up->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(up)) {
            QCoreApplication::sendEvent(area->viewport(), event);
            break;
        }
    return true;
}

} // namespace scalelab::ui
