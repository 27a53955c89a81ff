// Cost of one full system sample (all PUs, all disks, load-generator and server process CPU,
// pressure, server counters over one connection), in CPU time of this process.
//
//   (cmake --preset release -DSCALELAB_BUILD_BENCH=ON)
//   build/release/bench/sample_cost [SAMPLES]
//
// Starts a throwaway embedded server, takes SAMPLES snapshots back to back, and prints the
// median and mean CPU time (user + sys, getrusage) and wall time per snapshot.
#include "metrics/SystemSampler.h"
#include "server/EmbeddedServer.h"
#include "util/TempDir.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

using namespace scalelab;

static double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char** argv) {
    int samples = argc > 1 ? std::atoi(argv[1]) : 500;
    TempDir dir("scalelab-bench");
    std::filesystem::permissions(dir.path(), std::filesystem::perms::others_exec, std::filesystem::perm_options::add);
    ServerOptions o;
    o.dataDir = dir.path() / "data";
    o.throwaway = true;
    EmbeddedServer server(o);
    server.start();

    MetricsSources src;
    src.loadGenerator = getpid();
    src.serverPostmaster = server.status().pid;
    src.conninfo = server.connectionString();
    src.ticksPerSecond = sysconf(_SC_CLK_TCK);
    SystemSampler sampler(src);
    sampler.snapshot();  // warm: first connection use, file caches

    std::vector<double> cpu, wall;
    for (int i = 0; i < samples; ++i) {
        double c0 = cpuSeconds();
        auto w0 = std::chrono::steady_clock::now();
        SystemSnapshot s = sampler.snapshot();
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
        cpu.push_back(cpuSeconds() - c0);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    double meanCpu = 0;
    for (double c : cpu) meanCpu += c;
    meanCpu /= static_cast<double>(cpu.size());
    std::printf("%d snapshots (%zu PUs, %zu disks in /proc/diskstats, server processes, counters)\n", samples,
                sampler.snapshot().cpu.perPu.size(), sampler.snapshot().disks.size());
    std::printf("CPU per snapshot: median %.3f ms, mean %.3f ms\n", median(cpu) * 1e3, meanCpu * 1e3);
    std::printf("wall per snapshot: median %.3f ms\n", median(wall) * 1e3);
    return 0;
}
