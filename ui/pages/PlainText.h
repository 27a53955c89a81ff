#pragma once
// User text (series labels, notes, file names, plan values, errors that quote them) is shown as
// plain text wherever Qt would guess: a QLabel, a QMessageBox and a tool tip take text that
// looks like HTML as rich text, and a label `<img src="/path/secret.png">` embedded that local
// file (issue 31.3). Widgets that show such text are made Qt::PlainText where they are built;
// message boxes and tool tips go through these.
#include <QMessageBox>
#include <QString>
#include <QTextDocument>
#include <QWidget>

namespace scalelab::ui {

inline void warnPlain(QWidget* parent, const QString& title, const QString& text) {
    QMessageBox box(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

// A tool tip is rich text or plain by Qt's guess; this makes it rich text that shows `text`
// exactly (escaped, line breaks kept).
inline QString plainToolTip(const QString& text) { return text.isEmpty() ? text : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal); }

} // namespace scalelab::ui
