// The ui models on their own, without a window, a display or a server: what each model holds,
// dumped as text and compared with what the user should see, and QAbstractItemModelTester
// checking the item-model contract while rows are set, added, synced and edited.
#include "RunRecords.h"
#include "ScalingDump.h"

#include "models/RunsTableModel.h"
#include "models/ScalingData.h"
#include "models/Timeline.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace scalelab;
using namespace scalelab::ui;

using test::dump;

namespace {

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// Header and rows, cells separated by " | "; a check box is [x] or [ ].
QString dump(const QAbstractItemModel& m) {
    QStringList lines, header;
    for (int c = 0; c < m.columnCount(); ++c) header << m.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    lines << header.join(QStringLiteral(" | "));
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < m.columnCount(); ++c) {
            QModelIndex i = m.index(r, c);
            QVariant check = m.data(i, Qt::CheckStateRole);
            cells << (check.isValid() ? (check.toInt() == Qt::Checked ? QStringLiteral("[x]") : QStringLiteral("[ ]"))
                                      : m.data(i, Qt::DisplayRole).toString());
        }
        lines << cells.join(QStringLiteral(" | "));
    }
    return lines.join(QLatin1Char('\n'));
}

QString dump(const QList<QPointF>& points) {
    QStringList out;
    for (const auto& p : points) out << QStringLiteral("(%1, %2)").arg(p.x()).arg(p.y());
    return out.join(QLatin1Char(' '));
}

RunRecord run(int64_t id, const std::string& series, int clients, int round, double tps, double p95) {
    RunRecord r = test::completedRun(series, clients, round, tps);
    r.id = id;
    r.latency.p95Ms = p95;
    return r;
}

LoadSample sample(double end, double tps, std::optional<double> busy = {}) {
    LoadSample s;
    s.endS = end;
    s.tps = tps;
    s.latency.p50Ms = s.latency.p95Ms = s.latency.p99Ms = 1;
    if (busy) {
        s.system = SystemSample{};
        s.system->cpu.total.user = *busy;
        s.system->cpu.total.idle = 100 - *busy;
    }
    return s;
}

} // namespace

class ModelsTest : public QObject {
    Q_OBJECT
private slots:
    void theRunsTableShowsEachRunAsStoredAndMissingAsADash() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunRecord failed = run(2, "B", 4, 1, 120.5, kMissing);
        failed.status = RunStatus::Failed;
        failed.error = "1 of 4 clients aborted";
        failed.flags.add(RunFlag::ClientBound);
        RunRecord noted = run(3, "A", 8, 1, 300, 2.5);
        noted.note = "backup ran";
        noted.flags = {RunFlag::Unstable, RunFlag::ExtraRound};
        model.setRuns({run(1, "A", 4, 1, 100.4, 1.5), failed, noted});
        QCOMPARE(dump(model), QStringLiteral(
            "Run | Series | Clients | Offered tps | Scale | Round | Status | tps | p95 ms | Failures | Flags | Excluded | Note\n"
            "1 | A | 4 | none | \u2014 | 1 | completed | 100.4 | 1.500 | 0 |  | [ ] | \n"
            "2 | B | 4 | none | \u2014 | 1 | failed | 120.5 | \u2014 | 0 | client-bound | [x] | \n"
            "3 | A | 8 | none | \u2014 | 1 | completed | 300.0 | 2.500 | 0 | unstable, extra-round | [ ] | backup ran"));
        QVERIFY(!model.anyOfferedRate());
        QVERIFY(!model.severalScales());
        // A rate and scale sweep's runs say their rate (whole, not 5e+06) and scale.
        RunRecord offered = run(4, "A", 4, 2, 2000, 3);
        offered.detail["rate"] = 5000000.0;
        offered.detail["data_scale"] = 100;
        model.setRuns({run(1, "A", 4, 1, 100.4, 1.5), offered});
        QCOMPARE(model.data(model.index(1, RunsTableModel::Offered), Qt::DisplayRole).toString(), QStringLiteral("5000000"));
        QCOMPARE(model.data(model.index(1, RunsTableModel::Scale), Qt::DisplayRole).toString(), QStringLiteral("100"));
        QVERIFY(!model.data(model.index(0, RunsTableModel::Scale), Qt::EditRole).isValid());
        QVERIFY(model.anyOfferedRate());
        QVERIFY(model.severalScales());  // 100 and one not recorded
        model.setRuns({run(1, "A", 4, 1, 100.4, 1.5), failed, noted});
        // A value the run does not have sorts as no value (EditRole), not as 0.
        QVERIFY(!model.data(model.index(1, RunsTableModel::P95), Qt::EditRole).isValid());
        QCOMPARE(model.data(model.index(1, RunsTableModel::Tps), Qt::ToolTipRole).toString(),
                 QStringLiteral("1 of 4 clients aborted"));
        QCOMPARE(model.data(model.index(1, RunsTableModel::Excluded), RunsTableModel::SearchRole).toString(),
                 QStringLiteral("excluded"));
    }

    // A PU that goes offline between samples drops out of the Live page's strip (shown as
    // missing, grey) and comes back when it is online again; never a 0 for it.
    void thePuStripFollowsPusGoingOfflineAndComingBack() {
        Timeline t;
        auto withPus = [](double end, std::vector<int> pus) {
            LoadSample s = sample(end, 10, 50);
            for (int pu : pus) s.system->cpu.perPu.push_back({pu, CpuUsage{40, 0, 10, 0, 0, 0, 0, 50}});
            return s;
        };
        auto shown = [&t] {
            QStringList out;
            for (const auto& [pu, busy] : t.lastPerPu()) out << QStringLiteral("%1:%2").arg(pu).arg(busy);
            return out.join(QLatin1Char(' '));
        };
        t.add(withPus(1, {0, 1, 2, 3}));
        QCOMPARE(shown(), QStringLiteral("0:50 1:50 2:50 3:50"));
        t.add(withPus(2, {0, 1, 2}));
        QCOMPARE(shown(), QStringLiteral("0:50 1:50 2:50"));
        t.add(withPus(3, {0, 1, 2, 3}));
        QCOMPARE(shown(), QStringLiteral("0:50 1:50 2:50 3:50"));
    }

    void editsAreReportedAndShownAtOnce() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunRecord failed = run(7, "B", 2, 1, 50, 3);
        failed.status = RunStatus::Failed;
        model.setRuns({run(6, "A", 2, 1, 100, 2), failed});
        QSignalSpy exclusions(&model, &RunsTableModel::exclusionChanged);
        QSignalSpy notes(&model, &RunsTableModel::noteChanged);
        QVERIFY(model.setData(model.index(0, RunsTableModel::Excluded), Qt::Checked, Qt::CheckStateRole));
        QVERIFY(model.setData(model.index(1, RunsTableModel::Excluded), Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(model.setData(model.index(1, RunsTableModel::Note), QStringLiteral("  counted on purpose "), Qt::EditRole));
        QVERIFY(model.setData(model.index(1, RunsTableModel::Note), QStringLiteral("counted on purpose"), Qt::EditRole));
        QCOMPARE(exclusions.size(), 2);
        QCOMPARE(exclusions[0][0].toLongLong(), 6);
        QCOMPARE(exclusions[0][1].toBool(), true);
        QCOMPARE(exclusions[1][1].toBool(), false);
        QCOMPARE(notes.size(), 1);  // the same note again is no change
        QCOMPARE(dump(model), QStringLiteral(
            "Run | Series | Clients | Offered tps | Scale | Round | Status | tps | p95 ms | Failures | Flags | Excluded | Note\n"
            "6 | A | 2 | none | \u2014 | 1 | completed | 100.0 | 2.000 | 0 |  | [x] | \n"
            "7 | B | 2 | none | \u2014 | 1 | failed | 50.0 | 3.000 | 0 | included | [ ] | counted on purpose"));
    }

    void aFollowedFileUpdatesRowsInPlaceAndAppendsNewOnes() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({run(1, "A", 1, 1, 10, 1)});
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
        RunRecord changed = run(1, "A", 1, 1, 10, 1);
        changed.note = "seen";
        model.syncRuns({changed, run(2, "B", 1, 1, 20, 1)});
        QCOMPARE(resets.size(), 0);
        QCOMPARE(inserts.size(), 1);
        model.syncRuns({changed, run(2, "B", 1, 1, 20, 1), run(3, "A", 2, 1, 30, 1)});
        model.syncRuns({changed, run(2, "B", 1, 1, 20, 1), run(3, "A", 2, 1, 31, 1)});  // the same run again: updated, not added
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(model.data(model.index(2, RunsTableModel::Tps), Qt::DisplayRole).toString(), QStringLiteral("31.0"));
        model.syncRuns({run(2, "B", 1, 1, 20, 1)});  // a file that lost a run: read again whole
        QCOMPARE(resets.size(), 1);
        QCOMPARE(model.rowCount(), 1);
    }

    void scalingPointsComeFromCountedRunsOnly() {
        RunRecord excluded = run(5, "A", 1, 3, 1000, 1);
        excluded.excluded = true;
        RunRecord failed = run(6, "B", 1, 2, 1000, 1);
        failed.status = RunStatus::Failed;
        std::vector<RunRecord> runs{run(1, "A", 1, 1, 100, 1), run(2, "A", 1, 2, 110, 1), run(3, "A", 2, 1, 190, 1),
                                    run(4, "B", 1, 1, 90, 1),  excluded, failed};
        ScalingData d = buildScalingData(runs, {"A", "B", "C"}, RunMetric::Tps, ErrorBars::MinMax, 0.95, false);
        QCOMPARE(dump(d), QStringLiteral("tps [transactions/s], min to max of the runs\n"
                                         "A (colour 0)\n"
                                         "  at 1: n 2, mean 105.00 [100.00, 110.00]\n"
                                         "  at 2: n 1, mean 190.00 [190.00, 190.00]\n"
                                         "B (colour 1)\n"
                                         "  at 1: n 1, mean 90.00 [90.00, 90.00]"));
        // A metric no run has gives no points, not points at 0.
        QCOMPARE(buildScalingData(runs, {"A", "B"}, RunMetric::CpuBusy, ErrorBars::MinMax, 0.95, false).pointCount(), 0);
        // Chart titles, axes and captions say a metric in words, never its id (issue 32.11).
        QCOMPARE(buildScalingData(runs, {"A"}, RunMetric::LatencyP95, ErrorBars::MinMax, 0.95, false).metric,
                 QStringLiteral("latency p95"));
        ScalingView view;
        view.metric = RunMetric::LogicalReads;
        QVERIFY(view.describe().startsWith(QStringLiteral("logical reads, error bars")));
    }

    void aTimelineSeriesIsAbsentWhereItHasNoValueNeverZero() {
        Timeline t;
        t.add(sample(1, 100));         // no system sample yet: no CPU value
        t.add(sample(2, 110, 40.0));
        t.add(sample(3, 120));         // the sampler missed one
        t.add(sample(4, 130, 60.0));
        QCOMPARE(dump(t.points(QStringLiteral("tps"), 800)), QStringLiteral("(1, 100) (2, 110) (3, 120) (4, 130)"));
        QCOMPARE(dump(t.points(QStringLiteral("cpu.busy"), 800)), QStringLiteral("(2, 40) (4, 60)"));
        QCOMPARE(t.maxOf(QStringLiteral("cpu.busy")), 60.0);
        QVERIFY(t.points(QStringLiteral("server.commits"), 800).isEmpty());
    }
};

QTEST_GUILESS_MAIN(ModelsTest)
#include "ModelsTest.moc"
