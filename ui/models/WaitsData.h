#pragma once
// What the Waits tab's chart draws (issue 62): one series' average active sessions by wait event
// at each x, stacked: "active session history by load". The events drawn are the series' largest
// over all its points (at most kWaitsDrawn), the rest summed as "other events"; a point without
// waits is a gap named in its label, never a zero bar.
#include "stats/PointAxis.h"
#include "stats/WaitReport.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace scalelab::ui {

constexpr size_t kWaitsDrawn = 8;

struct WaitsStack {
    QStringList xLabels;                 // "8", "16 (no waits)"
    struct Event {
        QString name;
        std::vector<std::optional<double>> sessions;  // per x: none where the point has no waits
    };
    std::vector<Event> events;          // largest first; "other events" last when there are more
    QString yTitle = QStringLiteral("average active sessions");
    bool empty() const { return events.empty(); }
};

WaitsStack waitsStack(const std::vector<PointWaits>& points, const std::string& series);

} // namespace scalelab::ui
