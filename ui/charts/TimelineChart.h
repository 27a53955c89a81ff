#pragma once
// A live chart of some of a Timeline's series over time. Updated with replace() (never append()
// in a loop), axes moved only when their rounded bounds change, no animations.
#include "models/Timeline.h"

#include <QChart>
#include <QStringList>

class QLineSeries;
class QValueAxis;

namespace scalelab::ui {

class TimelineChart : public QChart {
    Q_OBJECT
public:
    // names: Timeline series names; labels: their legend texts. stacked: areas summed (CPU).
    TimelineChart(const QString& title, const QString& yTitle, QStringList names, QStringList labels, bool stacked = false,
                  double fixedMaxY = 0);
    // Draw the timeline's boundaries (run starts on a whole sweep's axis) as grey vertical lines.
    void showBoundaries(const QString& label);
    void refresh(const Timeline& timeline, int columns);
    int pointCount() const;  // of every line drawn, boundaries included

private:
    QStringList names_;
    QList<QLineSeries*> lines_;
    QLineSeries* boundaries_ = nullptr;
    QValueAxis* x_;
    QValueAxis* y_;
    bool stacked_;
    double fixedMaxY_;
    double shownMaxX_ = -1, shownMaxY_ = -1;
};

} // namespace scalelab::ui
