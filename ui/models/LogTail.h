#pragma once
// The end of a log file that grows: each read() returns the whole lines written since the last
// one (a partial last line waits for its newline). A file that shrank (rotated, recreated) is
// read again from its start; a missing file reads as nothing. Qt Core only.
#include <QString>
#include <QStringList>

namespace scalelab::ui {

class LogTail {
public:
    // `fromEnd`: start at the file's current end (only what is written from now on), keeping
    // at most `backlog` of its last lines.
    explicit LogTail(QString path = {}, bool fromEnd = true, int backlog = 20);
    const QString& path() const { return path_; }
    QStringList read(int maxLines = 500);

private:
    QString path_;
    qint64 offset_ = 0;
    QStringList pending_;  // the backlog, handed out by the first read
};

} // namespace scalelab::ui
