// Cost of the live charts: (1) median time of one refresh of a chart holding 86,400 points per
// series x 6 series (a 24 h run at 1 s), decimated to the view's width, repainted; (2) the CPU the
// GUI process spends while a 1 Hz sample stream is charted on the Live page.
//
//   (cmake --preset release -DSCALELAB_BUILD_BENCH=ON)
//   QT_QPA_PLATFORM=offscreen build/release/bench/chart_refresh [REFRESHES] [STREAM_SECONDS]
#include "charts/TimelineChart.h"
#include "models/Timeline.h"
#include "pages/LivePage.h"
#include "topo/Topology.h"

#include <QApplication>
#include <QChartView>
#include <QElapsedTimer>
#include <QTimer>

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace scalelab;
using namespace scalelab::ui;

static double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static LoadSample sampleAt(int i) {
    LoadSample s;
    s.endS = i + 1;
    s.tps = 20000 + 3000 * std::sin(i / 300.0) + (i % 97) * 10;
    s.latency.p50Ms = 0.3 + 0.05 * std::sin(i / 50.0);
    s.latency.p95Ms = s.latency.p50Ms * 2.5;
    s.latency.p99Ms = s.latency.p50Ms * 4;
    return s;
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int refreshes = argc > 1 ? std::atoi(argv[1]) : 50;
    int streamSeconds = argc > 2 ? std::atoi(argv[2]) : 60;

    // (1) 6 series x 86,400 points.
    Timeline t;
    for (int i = 0; i < 86400; ++i) t.add(sampleAt(i));
    // The view's scene owns the chart.
    auto* chartPtr = new TimelineChart({QStringLiteral("bench"), QStringLiteral("value"),
                                        {QStringLiteral("tps"), QStringLiteral("p50"), QStringLiteral("p95"), QStringLiteral("p99"),
                                         QStringLiteral("tps"), QStringLiteral("p50")},
                                        {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"),
                                         QStringLiteral("e"), QStringLiteral("f")}});
    TimelineChart& chart = *chartPtr;
    QChartView view(chartPtr);
    view.resize(1200, 600);
    view.show();
    QApplication::processEvents();
    std::vector<double> ms;
    for (int i = 0; i < refreshes; ++i) {
        QElapsedTimer timer;
        timer.start();
        chart.refresh(t, view.width());
        view.repaint();
        ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::printf("refresh of 6 series x 86400 points (decimated to %d columns, repainted): median %.2f ms, max %.2f ms, "
                "%d points drawn\n", view.width(), ms[ms.size() / 2], ms.back(), chart.pointCount());
    std::fflush(stdout);

    // (2) the Live page fed one sample per second.
    LivePage live(Topology::live().info());
    live.resize(1400, 900);
    live.show();
    SweepProgress p;
    p.run = 1;
    p.total = 1;
    int i = 0;
    double cpu0 = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, [&] {
        live.addSample(p, sampleAt(i++));
        if (i >= streamSeconds) app.quit();
    });
    tick.start(1000);
    app.exec();
    double cpu = cpuSeconds() - cpu0, secs = static_cast<double>(wall.elapsed()) / 1000;
    std::printf("Live page at 1 Hz for %.0f s: %.3f s of CPU = %.2f%% of one core\n", secs, cpu, 100 * cpu / secs);
    return 0;
}
