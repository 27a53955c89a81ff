#include "models/WaitsData.h"

#include <QObject>

#include <algorithm>
#include <map>

namespace scalelab::ui {

WaitsStack waitsStack(const std::vector<PointWaits>& points, const std::string& series) {
    WaitsStack out;
    std::vector<const PointWaits*> mine;
    for (const auto& p : points)
        if (p.series == series) mine.push_back(&p);
    std::sort(mine.begin(), mine.end(), [](const PointWaits* a, const PointWaits* b) { return a->clients < b->clients; });
    // Each point's sessions by event (the runs' mean), and the events' totals over the points.
    std::vector<std::map<std::string, double>> perPoint;
    std::map<std::string, double> total;
    for (const PointWaits* p : mine) {
        std::map<std::string, double> s;
        for (const auto& e : pointWaitSummaries(*p, 0.95)) {
            s[e.event] = e.sessions;
            total[e.event] += e.sessions;
        }
        perPoint.push_back(std::move(s));
        out.xLabels << (p->runs.empty() ? QObject::tr("%1 (no waits)").arg(p->clients) : QString::number(p->clients));
    }
    std::vector<std::pair<std::string, double>> ranked(total.begin(), total.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    const size_t drawn = ranked.size() > kWaitsDrawn ? kWaitsDrawn - 1 : ranked.size();
    for (size_t i = 0; i < drawn; ++i) {
        WaitsStack::Event e;
        e.name = QString::fromStdString(ranked[i].first);
        for (size_t k = 0; k < mine.size(); ++k) {
            if (mine[k]->runs.empty()) e.sessions.push_back(std::nullopt);
            else e.sessions.push_back(perPoint[k].count(ranked[i].first) ? perPoint[k].at(ranked[i].first) : 0.0);
        }
        out.events.push_back(std::move(e));
    }
    if (ranked.size() > drawn) {
        WaitsStack::Event other;
        other.name = QObject::tr("other events");
        for (size_t k = 0; k < mine.size(); ++k) {
            if (mine[k]->runs.empty()) {
                other.sessions.push_back(std::nullopt);
                continue;
            }
            double sum = 0;
            for (size_t i = drawn; i < ranked.size(); ++i)
                if (perPoint[k].count(ranked[i].first)) sum += perPoint[k].at(ranked[i].first);
            other.sessions.push_back(sum);
        }
        out.events.push_back(std::move(other));
    }
    return out;
}

} // namespace scalelab::ui
