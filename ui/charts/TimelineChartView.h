#pragma once
// A live chart of some of a Timeline's series over time, as pages see it: a widget. Qt Charts
// stays inside charts/ (TimelineChart draws).
#include "models/Timeline.h"

#include <QSize>
#include <QStringList>
#include <QWidget>

#include <utility>

class QChart;

namespace scalelab::ui {

class TimelineChart;

struct TimelineChartSpec {
    TimelineChartSpec(QString t, QString y, QStringList n, QStringList l)
        : title(std::move(t)), yTitle(std::move(y)), names(std::move(n)), labels(std::move(l)) {}
    QString title, yTitle;
    QStringList names;   // Timeline series names
    QStringList labels;  // their legend texts
    bool stacked = false;        // areas summed (CPU)
    double fixedMaxY = 0;        // 0: the axis follows the data
    bool legendAtRight = false;  // a column of entries: never elided, for five or more
    // Series from this index on are drawn against a second axis on the right, titled
    // rightTitle: counters of different sizes (commits/s ~3,000 beside logical reads/s ~80,000)
    // each fill the chart's height instead of one lying flat on the floor. -1: one axis.
    int rightFrom = -1;
    QString rightTitle;
};

class TimelineChartView : public QWidget {
    Q_OBJECT
public:
    TimelineChartView(const TimelineChartSpec& spec, QSize minimum, QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // Draw the timeline's boundaries (run starts on a whole sweep's axis) as grey vertical lines.
    void showBoundaries(const QString& label);
    void refresh(const Timeline& timeline, int columns);
    // The x axis spans the run's planned length (warm-up + duration), not a fixed 10 s; 0: it
    // follows the data. It widens when the run goes on longer.
    void setSpan(double seconds);
    int pointCount() const;  // of every line drawn, boundaries included
    // The right axis and its series (spec.rightFrom on), with their legend entries, shown or not.
    void setRightShown(bool shown);
    QChart* chart() const;    // for tests that read what is drawn

private:
    TimelineChart* chart_;
};

} // namespace scalelab::ui
