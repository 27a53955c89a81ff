#include "pages/StoreDialog.h"

#include "bridge/ExperimentBridge.h"
#include "store/PgStore.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab::ui {
namespace {
const char* const kSetting = "store/conninfo";
enum Column { Name, Runs, Created, Series, Note, ColumnCount };
} // namespace

StoreDialog::StoreDialog(QWidget* parent) : QDialog(parent), bridge_(new ExperimentBridge(this)) {
    setWindowTitle(tr("Open from results store"));
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Results store:")));
    conninfo_ = new QLineEdit(QSettings().value(QLatin1String(kSetting)).toString());
    conninfo_->setPlaceholderText(QStringLiteral("postgresql://bench@db1/results"));
    conninfo_->setToolTip(tr("A PostgreSQL connection string (URI or key=value), without a password: "
                             "ScaleLab reads it from ~/.pgpass or PGPASSWORD"));
    row->addWidget(conninfo_, 1);
    auto* listButton = new QPushButton(tr("&List"));
    row->addWidget(listButton);
    layout->addLayout(row);

    table_ = new QTableWidget(0, ColumnCount);
    table_->setHorizontalHeaderLabels({tr("Experiment"), tr("Runs"), tr("Created"), tr("Series"), tr("Note")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    layout->addWidget(table_, 1);
    status_ = new QLabel;
    status_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    status_->setWordWrap(true);
    layout->addWidget(status_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    open_ = buttons->addButton(tr("&Open"), QDialogButtonBox::AcceptRole);
    add_ = buttons->addButton(tr("&Add its series to the experiment shown"), QDialogButtonBox::ActionRole);
    layout->addWidget(buttons);
    resize(900, 420);

    connect(listButton, &QPushButton::clicked, this, [this] { list(conninfo_->text()); });
    connect(conninfo_, &QLineEdit::returnPressed, this, [this] { list(conninfo_->text()); });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &StoreDialog::updateButtons);
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this] { open_->click(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open_, &QPushButton::clicked, this, [this] {
        if (QString at = selectedLocation(); !at.isEmpty()) {
            emit openRequested(at);
            accept();
        }
    });
    connect(add_, &QPushButton::clicked, this, [this] {
        if (QString at = selectedLocation(); !at.isEmpty()) emit addRequested(at);
    });
    updateButtons();
}

QString StoreDialog::selectedLocation() const {
    auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return {};
    return table_->item(rows.first().row(), Name)->data(Qt::UserRole).toString();
}

void StoreDialog::updateButtons() {
    bool selected = !selectedLocation().isEmpty();
    open_->setEnabled(selected);
    add_->setEnabled(selected);
}

void StoreDialog::list(const QString& conninfo) {
    QString store = conninfo.trimmed();
    conninfo_->setText(store);
    table_->setRowCount(0);
    updateButtons();
    if (store.isEmpty()) {
        status_->setText(tr("Give the results store's connection, e.g. postgresql://bench@db1/results"));
        return emit listed(0, status_->text());
    }
    status_->setText(tr("Asking %1 ...").arg(store));
    int generation = ++generation_;
    std::function<std::vector<StoredExperiment>()> ask = [s = store.toStdString()] { return listExperiments(s); };
    bridge_->call<std::vector<StoredExperiment>>(
        std::move(ask),
        [this, store, generation](std::vector<StoredExperiment> experiments) {
            if (generation != generation_) return;
            QSettings().setValue(QLatin1String(kSetting), store);  // reached, and holds no password
            table_->setRowCount(static_cast<int>(experiments.size()));
            for (int i = 0; i < static_cast<int>(experiments.size()); ++i) {
                const StoredExperiment& e = experiments[static_cast<size_t>(i)];
                QStringList series;
                for (const auto& s : e.series) series << QString::fromStdString(s);
                QString name = QString::fromStdString(e.name) + (e.beingWritten ? tr(" (being written)") : QString());
                auto* item = new QTableWidgetItem(name);
                item->setData(Qt::UserRole, QString::fromStdString(e.location));
                table_->setItem(i, Name, item);
                table_->setItem(i, Runs, new QTableWidgetItem(QString::number(e.runs)));
                table_->setItem(i, Created, new QTableWidgetItem(QString::fromStdString(e.createdAt)));
                table_->setItem(i, Series, new QTableWidgetItem(series.join(QStringLiteral(", "))));
                table_->setItem(i, Note, new QTableWidgetItem(QString::fromStdString(e.note).section(QLatin1Char('\n'), 0, 0)));
            }
            table_->resizeColumnsToContents();
            status_->setText(experiments.empty() ? tr("No experiments in %1 yet: a sweep or an import into it makes one").arg(store)
                                                 : tr("%n experiment(s) in %1", nullptr, static_cast<int>(experiments.size())).arg(store));
            emit listed(static_cast<int>(experiments.size()), {});
        },
        [this, generation](const QString& error) {
            if (generation != generation_) return;
            status_->setText(error);
            emit listed(0, error);
        });
}

} // namespace scalelab::ui
