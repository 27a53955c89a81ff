#include "models/LogTail.h"

#include <QFile>
#include <QFileInfo>

namespace scalelab::ui {

LogTail::LogTail(QString path, bool fromEnd, int backlog) : path_(std::move(path)) {
    if (path_.isEmpty() || !fromEnd) return;
    QFile f(path_);
    if (!f.open(QIODevice::ReadOnly)) return;
    qint64 size = f.size();
    // The last lines before now: enough context to see where the server is.
    qint64 from = std::max<qint64>(0, size - 64 * 1024);
    f.seek(from);
    QByteArray tail = f.read(size - from);
    int end = static_cast<int>(tail.lastIndexOf('\n')) + 1;
    QStringList lines = QString::fromUtf8(tail.left(end)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (from > 0 && !lines.isEmpty()) lines.removeFirst();  // cut in the middle
    while (lines.size() > backlog) lines.removeFirst();
    pending_ = lines;
    offset_ = from + end;
}

QStringList LogTail::read(int maxLines) {
    QStringList out = pending_;
    pending_.clear();
    if (path_.isEmpty()) return out;
    QFile f(path_);
    if (!f.open(QIODevice::ReadOnly)) return out;
    if (f.size() < offset_) offset_ = 0;  // rotated or recreated: from its start
    f.seek(offset_);
    QByteArray data = f.read(std::min<qint64>(f.size() - offset_, 1024 * 1024));
    int end = static_cast<int>(data.lastIndexOf('\n')) + 1;  // whole lines only
    offset_ += end;
    out += QString::fromUtf8(data.left(end)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    while (out.size() > maxLines) out.removeFirst();
    return out;
}

} // namespace scalelab::ui
