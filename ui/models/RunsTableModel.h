#pragma once
// The runs of an experiment as a table: sortable and filterable through a proxy; the
// "excluded" column is checkable and the "note" column editable; each reports the change, which
// the page writes to the file.
#include "store/ExperimentStore.h"

#include <QAbstractTableModel>

#include <vector>

namespace scalelab::ui {

class RunsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Offered: the run's rate (pgbench -R), "none" when unthrottled; Scale: its data scale, missing
    // for runs that did not record one. The page hides them when they would say nothing.
    enum Column { Id, Series, Clients, Offered, Scale, Round, Status, Tps, P95, Failures, Flags, Excluded, Note, ColumnCount };
    // What the runs filter matches: each column's text, and "excluded" or "counted" for the
    // check box (which has no text of its own).
    static constexpr int SearchRole = Qt::UserRole + 1;
    using QAbstractTableModel::QAbstractTableModel;

    void setRuns(std::vector<RunRecord> runs);
    // The file's runs now: rows of runs the model has are updated in place (selection and
    // scroll position stay), new ones appended; anything else resets the model.
    void syncRuns(std::vector<RunRecord> runs);
    const std::vector<RunRecord>& runs() const { return runs_; }
    const RunRecord& run(int row) const { return runs_[static_cast<size_t>(row)]; }
    bool anyOfferedRate() const;  // some run had one: the Offered column says something
    bool severalScales() const;   // the runs ran on more than one data scale

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;

signals:
    void exclusionChanged(qint64 runId, bool excluded);
    void noteChanged(qint64 runId, const QString& note);

private:
    std::vector<RunRecord> runs_;
};

} // namespace scalelab::ui
