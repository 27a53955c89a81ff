#pragma once
// The versions ScaleLab runs with (Qt, libpq, libpqxx, hwloc, PostgreSQL server),
// shown by --version and, later, the About dialog.
#include <QString>

namespace scalelab::ui {

// One "name version" per line. `serverDescription` is the embedded server's
// PgBinaries::describe(), or why none was found.
QString aboutText(const QString& serverDescription);

} // namespace scalelab::ui
