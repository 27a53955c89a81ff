#pragma once
// A live chart of some of a Timeline's series over time. Updated with replace() (never append()
// in a loop), axes moved only when their rounded bounds change, no animations.
#include "charts/TimelineChartView.h"
#include "models/Timeline.h"

#include <QChart>
#include <QStringList>

class QLineSeries;
class QValueAxis;

namespace scalelab::ui {

class TimelineChart : public QChart {
    Q_OBJECT
public:
    explicit TimelineChart(const TimelineChartSpec& spec);
    // Draw the timeline's boundaries (run starts on a whole sweep's axis) as grey vertical lines.
    void showBoundaries(const QString& label);
    void refresh(const Timeline& timeline, int columns);
    void setSpan(double seconds);  // the run's planned length; 0: follow the data
    int pointCount() const;  // of every line drawn, boundaries included
    // Show or hide the right axis and its series with their legend entries (a series only some
    // runs have: TPROC-C's NOPM beside tps).
    void setRightShown(bool shown);

private:
    void setX(double end);
    QStringList names_;
    QString yTitle_, rightTitle_;
    QList<QLineSeries*> lines_;
    QLineSeries* boundaries_ = nullptr;
    QValueAxis* x_;
    QValueAxis* y_;
    QValueAxis* right_ = nullptr;  // the second axis (spec.rightFrom), or none
    int rightFrom_;
    bool stacked_;
    double fixedMaxY_;
    double span_ = 0;
    double shownMaxX_ = -1, shownMaxY_ = -1, shownMaxRight_ = -1;
};

} // namespace scalelab::ui
