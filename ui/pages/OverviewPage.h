#pragma once
// What the open experiment is: the file, its runs, the machine (topology, SMT, kernel),
// PostgreSQL (version, non-default settings), scripts, versions and the plan, as recorded when
// it was measured; and the experiment's note, which the user edits and saves into the file.
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
    void load(const QString& experimentPath);  // throws Error when the file cannot be read
    void clear();

    QTextBrowser* browser() const { return browser_; }
    QPlainTextEdit* noteEdit() const { return note_; }
    QPushButton* saveButton() const { return save_; }
    // Writes the note into the file. "" when written, else why not (a sweep holds the file ...).
    QString saveNote();

private:
    QString path_;
    QTextBrowser* browser_;
    QPlainTextEdit* note_;
    QPushButton* save_;
    QLabel* noteState_;
};

} // namespace scalelab::ui
