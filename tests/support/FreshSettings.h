#pragma once
// The window keeps its last plan, recent files and view choices in QSettings. A test starts
// from none: in Qt's test-mode location (never the user's own settings), emptied, so that what
// an earlier run of the same test left (a rate list typed into the form) does not leak into
// this one.
#include <QSettings>
#include <QStandardPaths>

namespace scalelab::test {

inline void startWithFreshSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
}

} // namespace scalelab::test
