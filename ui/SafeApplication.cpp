#include "SafeApplication.h"
#include "pages/PlainText.h"
#include "bridge/ErrorText.h"

#include <QMessageBox>
#include <QWidget>

#include <cstdio>

namespace scalelab::ui {

bool SafeApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scalelab: error: %s\n", redactPasswords(e.what()).c_str());
        warnPlain(activeWindow(), QStringLiteral("ScaleLab"), errorText(e));
    } catch (...) {
        std::fprintf(stderr, "scalelab: error: an unexpected failure\n");
        warnPlain(activeWindow(), QStringLiteral("ScaleLab"), QStringLiteral("An unexpected failure."));
    }
    return false;
}

} // namespace scalelab::ui
