#include "SafeApplication.h"

#include <QMessageBox>
#include <QWidget>

#include <cstdio>

namespace scalelab::ui {

bool SafeApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scalelab: error: %s\n", e.what());
        QMessageBox::warning(activeWindow(), QStringLiteral("ScaleLab"), QString::fromUtf8(e.what()));
    } catch (...) {
        std::fprintf(stderr, "scalelab: error: an unexpected failure\n");
        QMessageBox::warning(activeWindow(), QStringLiteral("ScaleLab"), QStringLiteral("An unexpected failure."));
    }
    return false;
}

} // namespace scalelab::ui
