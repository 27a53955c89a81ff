#include "models/RunsTableModel.h"

#include <algorithm>

#include <cmath>
#include <set>

#include <QColor>

namespace scalelab::ui {

void RunsTableModel::setRuns(std::vector<RunRecord> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

void RunsTableModel::syncRuns(std::vector<RunRecord> runs) {
    bool prefix = runs.size() >= runs_.size() &&
                  std::equal(runs_.begin(), runs_.end(), runs.begin(), [](const RunRecord& a, const RunRecord& b) { return a.id == b.id; });
    if (!prefix) return setRuns(std::move(runs));
    size_t kept = runs_.size();
    for (size_t i = 0; i < kept; ++i) runs_[i] = std::move(runs[i]);
    if (kept > 0) emit dataChanged(index(0, 0), index(static_cast<int>(kept) - 1, ColumnCount - 1));
    if (runs.size() > kept) {
        beginInsertRows({}, static_cast<int>(kept), static_cast<int>(runs.size()) - 1);
        for (size_t i = kept; i < runs.size(); ++i) runs_.push_back(std::move(runs[i]));
        endInsertRows();
    }
}

int RunsTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(runs_.size()); }
bool RunsTableModel::anyOfferedRate() const {
    return std::any_of(runs_.begin(), runs_.end(), [](const RunRecord& r) { return offeredRateOf(r) > 0; });
}

bool RunsTableModel::severalScales() const {
    std::set<int64_t> scales;
    for (const auto& r : runs_) scales.insert(dataScaleOf(r));
    return scales.size() > 1;
}

int RunsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    const RunRecord& r = runs_[static_cast<size_t>(index.row())];
    // Checked: left out of the statistics (excluded, or not completed and not included on purpose).
    if (role == Qt::CheckStateRole && index.column() == Excluded) return countsInStatistics(r) ? Qt::Unchecked : Qt::Checked;
    if (role == Qt::ToolTipRole && index.column() == Note)
        return r.note.empty() ? tr("Double-click to write a note on this run (why it was excluded, what happened)")
                              : QString::fromStdString(r.note);
    if (role == Qt::ToolTipRole && !r.error.empty()) return QString::fromStdString(r.error);
    if (role == Qt::ForegroundRole && r.status != RunStatus::Completed) return QColor(Qt::darkRed);
    if (role == SearchRole)
        return index.column() == Excluded ? QString(countsInStatistics(r) ? QStringLiteral("counted") : QStringLiteral("excluded"))
                                          : data(index, Qt::DisplayRole).toString();
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
    case Id: return static_cast<qlonglong>(r.id);
    case Series: return QString::fromStdString(r.series);
    case Clients: return r.clients;
    case Offered: {  // sorted by rate, unthrottled first; 5000000, not 5e+06
        double rate = offeredRateOf(r);
        if (role == Qt::EditRole) return rate;
        return rate > 0 ? QString::number(rate, 'g', 15) : QStringLiteral("none");
    }
    case Scale: {  // a run that recorded no scale: missing, never 0
        int64_t scale = dataScaleOf(r);
        if (scale <= 0) return role == Qt::EditRole ? QVariant() : QVariant(QStringLiteral("\u2014"));
        return static_cast<qlonglong>(scale);
    }
    case Round: return r.repetition;
    case Status: return QString::fromLatin1(runStatusName(r.status));
    case Tps:  // a failed run that never started has no rate
        if (std::isnan(r.tps)) return role == Qt::EditRole ? QVariant() : QVariant(QStringLiteral("\u2014"));
        return role == Qt::EditRole ? QVariant(r.tps) : QVariant(QString::number(r.tps, 'f', 1));
    case P95:  // a value the run does not have is shown as missing, never as 0
        if (std::isnan(r.latency.p95Ms)) return role == Qt::EditRole ? QVariant() : QVariant(QStringLiteral("\u2014"));
        return role == Qt::EditRole ? QVariant(r.latency.p95Ms) : QVariant(QString::number(r.latency.p95Ms, 'f', 3));
    case Failures: return static_cast<qulonglong>(r.failures);
    case Flags: return QString::fromStdString(r.flags.joined(", "));
    case Excluded: return {};
    case Note: return QString::fromStdString(r.note);
    }
    return {};
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Run",  "Series", "Clients", "Offered tps", "Scale", "Round",   "Status",
                                  "tps",  "p95 ms", "Failures", "Flags",      "Excluded", "Note"};
    static_assert(sizeof names / sizeof names[0] == ColumnCount, "a header per column");
    return QString::fromLatin1(names[section]);
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == Excluded) f |= Qt::ItemIsUserCheckable;
    if (index.column() == Note) f |= Qt::ItemIsEditable;
    return f;
}

bool RunsTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role == Qt::EditRole && index.column() == Note) {
        RunRecord& r = runs_[static_cast<size_t>(index.row())];
        std::string note = value.toString().trimmed().toStdString();
        if (note == r.note) return true;
        r.note = note;
        emit dataChanged(index, index);
        emit noteChanged(r.id, QString::fromStdString(note));
        return true;
    }
    if (role != Qt::CheckStateRole || index.column() != Excluded) return false;
    RunRecord& r = runs_[static_cast<size_t>(index.row())];
    applyExclusion(r, value.toInt() == Qt::Checked);
    emit dataChanged(this->index(index.row(), 0), this->index(index.row(), columnCount() - 1));
    emit exclusionChanged(r.id, r.excluded);
    return true;
}

} // namespace scalelab::ui
