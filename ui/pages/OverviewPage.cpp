#include "pages/OverviewPage.h"

#include <QLabel>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace scalelab::ui {

OverviewPage::OverviewPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* split = new QSplitter(Qt::Vertical);
    browser_ = new QTextBrowser;
    browser_->setOpenLinks(false);
    split->addWidget(browser_);
    auto* noteBox = new QWidget;
    auto* nl = new QVBoxLayout(noteBox);
    nl->setContentsMargins(0, 0, 0, 0);
    nl->addWidget(new QLabel(tr("Note on this experiment (kept in the file; exported with it and in the HTML report):")));
    note_ = new QPlainTextEdit;
    note_->setPlaceholderText(tr("What was measured and why, what was special about the machine..."));
    nl->addWidget(note_, 1);
    auto* row = new QHBoxLayout;
    save_ = new QPushButton(tr("Save note"));
    noteState_ = new QLabel;
    noteState_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    noteState_->setWordWrap(true);
    row->addWidget(save_);
    row->addWidget(noteState_, 1);
    nl->addLayout(row);
    split->addWidget(noteBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    store_ = new ExperimentBridge(this);
    connect(save_, &QPushButton::clicked, this, &OverviewPage::saveNote);
    connect(this, &OverviewPage::noteSaved, this, [this](const QString& why) {
        noteState_->setText(why.isEmpty() ? tr("Saved.") : why);
    });
    connect(note_, &QPlainTextEdit::textChanged, this, [this] { noteState_->clear(); });
    clear();
}

void OverviewPage::clear() {
    ++generation_;
    path_.clear();
    browser_->setHtml(tr("<p>No experiment is open. File &gt; Open shows one here: the machine, the server, the "
                         "versions and the plan it was measured with.</p>"));
    note_->clear();
    note_->setEnabled(false);
    save_->setEnabled(false);
}

void OverviewPage::show(const OverviewText& text, bool withNote) {
    browser_->setHtml(QString::fromStdString(text.html));
    if (withNote) note_->setPlainText(QString::fromStdString(text.note));
}

// A load of the file shown keeps the note being typed (the runs' exclusions and notes changed,
// not the experiment's note); another file shows its own note.
void OverviewPage::load(const QString& path) {
    quint64 generation = ++generation_;
    store_->readOverview(
        path,
        [this, path, generation](OverviewText text) {
            if (generation != generation_) return;
            bool sameFile = path == path_;
            path_ = path;
            show(text, !sameFile);
            note_->setEnabled(true);
            save_->setEnabled(true);
            if (!sameFile) noteState_->clear();
            emit loaded(path);
        },
        [this, path, generation](const QString& error) {
            if (generation != generation_) return;
            noteState_->setText(tr("Cannot read %1: %2").arg(path, error));
            emit loadFailed(path, error);
        });
}

void OverviewPage::saveNote() {
    if (path_.isEmpty()) return emit noteSaved(tr("No experiment is open."));
    quint64 generation = generation_;
    store_->setNote(
        path_, note_->toPlainText(),
        [this, generation](OverviewText text) {
            if (generation != generation_) return;
            show(text, false);
            emit noteSaved({});
        },
        [this, generation](const QString& error) {
            if (generation != generation_) return;
            emit noteSaved(tr("Not saved: %1").arg(error));
        });
}

} // namespace scalelab::ui
