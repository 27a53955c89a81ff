#include "AboutInfo.h"

#include "util/Versions.h"

#include <QtGlobal>

namespace scalelab::ui {

QString aboutText(const QString& serverDescription) {
    QString text = QStringLiteral("ScaleLab %1\n").arg(QString::fromStdString(scalelabVersion()));
    text += QStringLiteral("Qt %1\n").arg(QString::fromLatin1(qVersion()));
    for (const auto& [name, version] : libraryVersions())
        text += QStringLiteral("%1 %2\n").arg(QString::fromStdString(name), QString::fromStdString(version));
    text += QStringLiteral("server: %1\n").arg(serverDescription);
    return text;
}

} // namespace scalelab::ui
