#include "AboutInfo.h"

#include "util/Versions.h"

#include <QtGlobal>

namespace scalelab::ui {

QString aboutText(const QString& serverDescription) {
    QString text = QStringLiteral("ScaleLab %1\n").arg(QString::fromStdString(scalelabVersion()));
    text += QStringLiteral("Qt %1\n").arg(QString::fromLatin1(qVersion()));
    for (const auto& [name, version] : libraryVersions())
        text += QStringLiteral("%1 %2\n").arg(QString::fromStdString(name), QString::fromStdString(version));
    // The load generator's engines (docs/load-engines.md): which one a run used is in its record.
    text += QStringLiteral("load engines: wire (the protocol on libpq's connections; the default), libpq (pipelines, TLS)\n");
    text += QStringLiteral("server: %1\n").arg(serverDescription);
    return text;
}

} // namespace scalelab::ui
