#include "pages/ComparisonPanel.h"
#include "pages/PlainText.h"
#include "bridge/ErrorText.h"

#include "charts/ScalingChartView.h"
#include "models/RatioData.h"
#include "pages/TableCell.h"
#include "stats/Verdict.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

namespace scalelab::ui {

ComparisonPanel::ComparisonPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* row = new QHBoxLayout;
    baseline_ = new QComboBox;
    candidate_ = new QComboBox;
    for (auto* c : {baseline_, candidate_}) c->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // whole names
    paired_ = new QCheckBox(tr("paired by round"));
    row->addWidget(new QLabel(tr("Baseline")));
    row->addWidget(baseline_);
    row->addWidget(new QLabel(tr("compared")));
    row->addWidget(candidate_);
    row->addWidget(paired_);
    // "Is B the same as A within X%?": two one-sided tests, as `report --equivalence`.
    equivalence_ = new QDoubleSpinBox;
    equivalence_->setRange(0, 50);
    equivalence_->setDecimals(1);
    equivalence_->setSingleStep(0.5);
    equivalence_->setSpecialValueText(tr("off"));
    equivalence_->setPrefix(QStringLiteral("\u00b1"));
    equivalence_->setSuffix(QStringLiteral("%"));
    // A wheel passing over it must not change the margin: it steps the box only once clicked.
    equivalence_->setFocusPolicy(Qt::StrongFocus);
    equivalence_->installEventFilter(this);
    equivalence_->setToolTip(tr("Equivalence margin: the compared series counts as the same as the baseline at a "
                                "client count when the change's interval (two one-sided tests, corrected over "
                                "client counts) lies inside it"));
    row->addWidget(new QLabel(tr("same within")));
    row->addWidget(equivalence_);
    row->addStretch();
    summary_ = new QLabel;
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::PlainText);  // series labels are the user's text, never markup
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The raw p beside the adjusted one, as the CLI and the HTML report have them (issue 61.11).
    table_ = new QTableWidget(0, CompareColumns);
    table_->setHorizontalHeaderLabels({tr("Clients"), tr("Baseline mean"), tr("Compared mean"), tr("Change"),
                                       tr("Change interval"), tr("p"), tr("p (adjusted)"), tr("Verdict"),
                                       tr("Runs/side for 5%"), tr("Same within margin")});
    table_->setColumnHidden(ColSame, true);
    // No row numbers: 1-4 beside client counts 1, 2, 4, 8 read as data (issue 61.11).
    table_->verticalHeader()->hide();
    // Rows of one line, columns as wide as their figures: at 1024 px equal columns broke the
    // interval over two lines, and the style's 30 px rows left room for two rows on a laptop
    // (issue 61.5).
    table_->setWordWrap(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addLayout(row);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    // The ratio chart lives in a tab of its own (the page places ratioView()): a chart beside
    // the table leaves both too narrow to read.
    ratioView_ = new QWidget(this);
    ratioChart_ = new ScalingChartView(QSize(0, 280));
    ratioNote_ = new QLabel;
    ratioNote_->setTextFormat(Qt::PlainText);  // shows user text: never markup (issue 31.3)
    ratioNote_->setWordWrap(true);
    auto* ratioLayout = new QVBoxLayout(ratioView_);
    ratioLayout->addWidget(ratioChart_, 1);
    ratioLayout->addWidget(ratioNote_);
    for (auto* c : {baseline_, candidate_})
        connect(c, qOverload<int>(&QComboBox::currentIndexChanged), this, &ComparisonPanel::choiceChanged);
    connect(paired_, &QCheckBox::toggled, this, &ComparisonPanel::choiceChanged);
    connect(equivalence_, qOverload<double>(&QDoubleSpinBox::valueChanged), this, &ComparisonPanel::choiceChanged);
}

void ComparisonPanel::setSeries(const std::vector<std::string>& order) {
    QString base = baseline_->currentText(), cand = candidate_->currentText();
    QSignalBlocker b1(baseline_), b2(candidate_);
    baseline_->clear();
    candidate_->clear();
    for (const auto& s : order) baseline_->addItem(QString::fromStdString(s)), candidate_->addItem(QString::fromStdString(s));
    if (!base.isEmpty()) baseline_->setCurrentText(base);
    if (!cand.isEmpty()) candidate_->setCurrentText(cand);
    // Comparing a series with itself says nothing: pick another one while there is one.
    if (candidate_->currentText() == baseline_->currentText() && candidate_->count() > 1)
        candidate_->setCurrentIndex(baseline_->currentIndex() == 0 ? 1 : 0);
}

bool ComparisonPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == equivalence_ && event->type() == QEvent::Wheel && !equivalence_->hasFocus()) {
        event->ignore();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

ReportChoice ComparisonPanel::choice() const {
    ReportChoice c;
    std::string base = baseline_->currentText().toStdString(), cand = candidate_->currentText().toStdString();
    if (!base.empty() && !cand.empty() && base != cand) c.baseline = base, c.candidate = cand;
    c.paired = paired_->isChecked();
    if (equivalence_->value() > 0) c.equivalencePct = equivalence_->value();
    return c;
}

void ComparisonPanel::message(const QString& text) {
    summary_->clear();
    table_->insertRow(0);
    table_->setSpan(0, 0, 1, table_->columnCount());
    table_->setItem(0, 0, readOnlyCell(text));
}

void ComparisonPanel::refresh(const std::vector<RunRecord>& runs, const std::vector<std::string>& order, RunMetric metric,
                              bool logX, PointAxis axis) {
    axis_ = axis;
    table_->horizontalHeaderItem(0)->setText(tr(pointAxisHeading(axis)));
    table_->setRowCount(0);
    table_->clearSpans();
    summary_->clear();
    ratio_ = ScalingData();
    ratioChart_->setData(ratio_, logX);
    if (baseline_->currentText().isEmpty() || candidate_->currentText().isEmpty())
        return showRatio(tr("No experiment, or no series in it."));
    if (order.size() < 2) {
        // A series compared with itself is 0% everywhere and tells nothing.
        message(tr("This experiment has one series: there is nothing to compare it with."));
        return showRatio(tr("This experiment has one series: there is no ratio to draw."));
    }
    CurveVerdict v;
    try {
        VerdictOptions o;
        o.paired = paired_->isChecked();
        if (equivalence_->value() > 0) o.equivalencePct = equivalence_->value();
        o.axis = axis;
        v = judgeCurve(pointRuns(runs, order, metric), runs, baseline_->currentText().toStdString(),
                       candidate_->currentText().toStdString(), metric, o);
    } catch (const std::exception& e) {
        // A comparison that cannot be made (a round twice on a side, paired) says why in the table.
        message(errorText(e));
        return showRatio(errorText(e));
    }
    QStringList sentences;
    for (const auto& s : v.summary) sentences << QStringLiteral("\u2022 ") + QString::fromStdString(s) + QLatin1Char('.');
    summary_->setText(sentences.join(QLatin1Char('\n')));
    for (const auto& p : v.points) {
        const Comparison& c = p.comparison;
        int r = table_->rowCount();
        table_->insertRow(r);
        table_->setItem(r, ColX, readOnlyCell(QString::number(p.clients)));
        table_->setItem(r, ColBaseline, readOnlyCell(QString::number(c.a.mean, 'f', 1)));
        table_->setItem(r, ColCompared, readOnlyCell(QString::number(c.b.mean, 'f', 1)));
        table_->setItem(r, ColChange, readOnlyCell(c.percentChange ? signedPercent(*c.percentChange) : QStringLiteral("-")));
        // An interval from -100% to +2e9% is not a number anyone can use: in words (issue 32.5).
        auto* interval = readOnlyCell(QString::fromStdString(changeIntervalText(p.simultaneousLow, p.simultaneousHigh)));
        if (p.simultaneousLow && !changeIntervalBounded(*p.simultaneousLow, *p.simultaneousHigh))
            interval->setToolTip(tr("The interval spans %1 .. %2: more than %3 times between its ends, so it bounds "
                                    "nothing. More runs narrow it: Runs/side says how many.")
                                     .arg(signedPercent(*p.simultaneousLow), signedPercent(*p.simultaneousHigh))
                                     .arg(kUnboundedRatioSpan));
        table_->setItem(r, ColInterval, interval);
        table_->setItem(r, ColP, readOnlyCell(numberOrMissing(c.pValue, 4)));
        table_->setItem(r, ColPAdjusted, readOnlyCell(numberOrMissing(p.pAdjusted, 4)));
        auto* verdict = readOnlyCell(QString::fromLatin1(pointCallName(p.call)));
        if (!p.why.empty()) verdict->setToolTip(plainToolTip(QString::fromStdString(p.why)));
        table_->setItem(r, ColVerdict, verdict);
        QString runsText = p.advice.runsForCurve ? QString::number(*p.advice.runsForCurve)
                       : p.advice.powerNow  ? QStringLiteral("> %1").arg(kMaxAdvisedRuns)
                                            : QStringLiteral("-");
        if (!c.singleRunSide.empty())
            runsText = p.advice.runsForSingleSide
                       ? tr("%1 of the %2").arg(*p.advice.runsForSingleSide).arg(QString::fromStdString(c.singleRunSide))
                       : QStringLiteral("-");
        table_->setItem(r, ColRuns, readOnlyCell(runsText));
        table_->setItem(r, ColSame, readOnlyCell(!p.equivalent ? QStringLiteral("-") : *p.equivalent ? tr("yes") : tr("not shown")));
    }
    table_->setColumnHidden(ColSame, !v.options.equivalencePct);
    if (v.options.equivalencePct)
        table_->horizontalHeaderItem(ColSame)->setText(tr("Same within \u00b1%1%").arg(*v.options.equivalencePct));
    // The same ratio chart as `export --ratio A B`, at the verdict's confidence.
    if (v.points.empty())
        return showRatio(tr("%1 and %2 have no %4 with completed runs of both%3.")
                             .arg(baseline_->currentText(), candidate_->currentText(),
                                  paired_->isChecked() ? tr(" in the same round") : QString(),
                                  QString::fromStdString(pointNoun(axis, false))));
    RatioChoice rc;
    rc.pairs = {{baseline_->currentText().toStdString(), candidate_->currentText().toStdString()}};
    rc.paired = paired_->isChecked();
    try {
        ratio_ = buildRatioData(runs, order, metric, VerdictOptions().confidence, rc, axis);
    } catch (const std::exception& e) {
        return showRatio(errorText(e));
    }
    ratioChart_->setData(ratio_, logX);
    showRatio({});
}

void ComparisonPanel::showRatio(const QString& why) {
    ratioChart_->setVisible(why.isEmpty());
    ratioNote_->setText(why.isEmpty()
                            ? tr("%1 over %2 at each %3 both have, as chosen on the Comparison tab below. Bars: each "
                                 "%3's own interval; the table's change interval holds for every point at "
                                 "once (Bonferroni), so it is wider. The dashed line: no difference.")
                                  .arg(candidate_->currentText(), baseline_->currentText(),
                                       QString::fromStdString(pointNoun(axis_, false)))
                            : tr("No ratio to draw: %1").arg(why));
}

} // namespace scalelab::ui
