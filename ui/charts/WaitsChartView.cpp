#include "charts/WaitsChartView.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>

namespace scalelab::ui {

WaitsChartView::WaitsChartView(QSize minimum, QWidget* parent) : ChartHostView(new QChart, minimum, parent) {
    bars_ = new QStackedBarSeries;
    x_ = new QBarCategoryAxis;
    y_ = new QValueAxis;
    chart()->addAxis(x_, Qt::AlignBottom);
    chart()->addAxis(y_, Qt::AlignLeft);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    y_->setRange(0, 1);
    y_->setTitleText(tr("average active sessions"));
    y_->setLabelFormat(QStringLiteral("%.1f"));
}

void WaitsChartView::setData(const WaitsStack& stack, const QString& title) {
    bars_->clear();
    x_->clear();
    chart()->setTitle(title.toHtmlEscaped());  // a chart title is HTML; the series label is user text
    x_->append(stack.xLabels);
    double top = 0;
    std::vector<double> heights(static_cast<size_t>(stack.xLabels.size()), 0.0);
    for (const auto& e : stack.events) {
        auto* set = new QBarSet(e.name.toHtmlEscaped());  // legend entries are HTML too
        for (size_t i = 0; i < e.sessions.size(); ++i) {
            // A point without waits has no bar (its label says why), never a bar of 0 sessions.
            *set << e.sessions[i].value_or(0.0);
            heights[i] += e.sessions[i].value_or(0.0);
        }
        bars_->append(set);
    }
    // The series is attached once it has bars: an empty one's range is NaN to NaN.
    if (!stack.empty() && !bars_->chart()) {
        chart()->addSeries(bars_);
        bars_->attachAxis(x_);
        bars_->attachAxis(y_);
    }
    for (double h : heights) top = std::max(top, h);
    y_->setRange(0, top > 0 ? top * 1.1 : 1);
}

QStringList WaitsChartView::xLabels() const { return x_->categories(); }

QStringList WaitsChartView::eventNames() const {
    QStringList names;
    for (const QBarSet* s : bars_->barSets()) names << s->label();  // as drawn (escaped)
    return names;
}

} // namespace scalelab::ui
