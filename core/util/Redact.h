#pragma once
// Text a user sees (errors, logs) without the secrets it may quote: a connection string the
// user typed can hold a password (postgresql://bench:PW@host/db, password=PW), and an error
// that names the string must not repeat it (issue 31.4). Applied where ScaleLab prints an
// error (the CLI, the window), so that no message path can forget it.
#include <string>

namespace scalelab {

// "postgresql://bench:PW@host" -> "postgresql://bench:***@host"; "password=PW" and
// "password='P W'" (key=value, or a URI parameter) -> "password=***".
std::string redactPasswords(const std::string& text);

// Text from a file or a store (a label, a note, a name) as it may reach a terminal: control
// characters (ESC, BEL, CR, ...: an escape sequence could rewrite the screen or the title)
// are shown as "?", a newline and a tab kept only where `keepLines`.
std::string terminalSafe(const std::string& text, bool keepLines = false);

} // namespace scalelab
