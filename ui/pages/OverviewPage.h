#pragma once
// What the open experiment is: the file, its runs, the machine (topology, SMT, kernel),
// PostgreSQL (version, non-default settings), scripts, versions and the plan, as recorded when
// it was measured; and the experiment's note, which the user edits and saves into the file.
#include "bridge/ExperimentBridge.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;

namespace scalelab::ui {

class OverviewPage : public QWidget {
    Q_OBJECT
public:
    explicit OverviewPage(QWidget* parent = nullptr);
    // Reads the file off the GUI thread; shows it and emits loaded(), or shows why not.
    void load(const QString& experimentPath);
    void clear();

    QTextBrowser* browser() const { return browser_; }
    QPlainTextEdit* noteEdit() const { return note_; }
    QPushButton* saveButton() const { return save_; }
    // Writes the note into the file off the GUI thread; noteSaved() says "" when written, else
    // why not (a sweep holds the file ...).
    void saveNote();
    QLabel* noteState() const { return noteState_; }

signals:
    void loaded(const QString& path);
    void loadFailed(const QString& path, const QString& error);
    void noteSaved(const QString& error);

private:
    void show(const OverviewText& text, bool withNote);

    ExperimentBridge* store_;
    quint64 generation_ = 0;  // a load or clear drops a read in flight
    QString path_;
    QTextBrowser* browser_;
    QPlainTextEdit* note_;
    QPushButton* save_;
    QLabel* noteState_;
};

} // namespace scalelab::ui
