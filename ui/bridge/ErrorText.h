#pragma once
// An error as the window shows it: never with a password the user typed into a connection
// string (util/Redact.h), whichever path the error took.
#include "util/Redact.h"

#include <QString>

#include <exception>

namespace scalelab::ui {

inline QString errorText(const std::exception& e) { return QString::fromStdString(redactPasswords(e.what())); }

} // namespace scalelab::ui
