#include "pages/OverviewPage.h"

#include "store/ExperimentOverview.h"
#include "store/HtmlReport.h"

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
    noteState_->setWordWrap(true);
    row->addWidget(save_);
    row->addWidget(noteState_, 1);
    nl->addLayout(row);
    split->addWidget(noteBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    connect(save_, &QPushButton::clicked, this, [this] {
        QString why = saveNote();
        noteState_->setText(why.isEmpty() ? tr("Saved.") : why);
    });
    connect(note_, &QPlainTextEdit::textChanged, this, [this] { noteState_->clear(); });
    clear();
}

void OverviewPage::clear() {
    path_.clear();
    browser_->setHtml(tr("<p>No experiment is open. File &gt; Open shows one here: the machine, the server, the "
                         "versions and the plan it was measured with.</p>"));
    note_->clear();
    note_->setEnabled(false);
    save_->setEnabled(false);
}

void OverviewPage::load(const QString& path) {
    auto store = ExperimentStore::open(path.toStdString(), true);
    path_ = path;
    browser_->setHtml(QString::fromStdString(overviewHtml(experimentOverview(*store))));
    note_->setPlainText(QString::fromStdString(store->note()));
    note_->setEnabled(true);
    save_->setEnabled(true);
    noteState_->clear();
}

QString OverviewPage::saveNote() {
    if (path_.isEmpty()) return tr("No experiment is open.");
    try {
        ExperimentStore::open(path_.toStdString())->setNote(note_->toPlainText().toStdString());
        auto store = ExperimentStore::open(path_.toStdString(), true);
        browser_->setHtml(QString::fromStdString(overviewHtml(experimentOverview(*store))));
        return {};
    } catch (const std::exception& e) {
        return tr("Not saved: %1").arg(QString::fromStdString(e.what()));
    }
}

} // namespace scalelab::ui
