#pragma once
// Where the sessions wait, read from pg_wait_sampling's profile (issue 62): the extension's
// collector, inside the server, samples every process's wait event (100 times a second by
// default) and counts them per (pid, event, query id) since the server started. A run's window
// is the difference of two reads of that profile, its pids told apart by a read of
// pg_stat_activity (the load's sessions, other clients, each backend type).
//
// Two things the profile does not say, made up here:
// - How many rounds the collector made (it lags its period on a busy machine): a reference
//   session of ScaleLab's own sits idle through the window, waiting on Client:ClientRead, so
//   the collector counts it once in every round; its count is the rounds.
// - Time on CPU: pg_wait_sampling 1.1 skips a process that waits on nothing. A process alive
//   at both ends of the window was sampled or on CPU in each round: rounds - its samples are
//   its CPU samples, counted up to the last read that found it alive (the load's sessions may
//   end just before the window's last read). A process that started inside the window has no
//   CPU figure (its lifetime is unknown); its waits are still counted.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace scalelab {

// One read of pg_wait_sampling_profile: (pid, wait_event_type, wait_event, query id) -> count.
using SamplingKey = std::tuple<int, std::string, std::string, std::string>;
using SamplingCounts = std::map<SamplingKey, uint64_t>;

// The class a pid is counted under: kLoadBackends, "other clients", a backend type; "" for one
// that is not counted at all (ScaleLab's own sessions, the collector).
using BackendClasses = std::map<int, std::string>;
// Processes of no known class: started and ended between two reads of pg_stat_activity.
constexpr const char* kShortLivedBackends = "short-lived backends";

// (backend class, wait_event_type, wait_event, query id) -> samples, as WaitProfile counts.
using ClassCounts = std::map<std::tuple<std::string, std::string, std::string, std::string>, uint64_t>;

struct SamplingWindow {
    uint64_t rounds = 0;  // the reference session's samples
    ClassCounts counts;
    std::map<int, uint64_t> sampledOf;  // pid -> its samples in the window, every event
    std::string error;    // why the two reads make no window ("" when they do)
};

// A process alive at the window's start, as of the last read that found it alive: the rounds
// then, and its samples then.
struct AliveAt {
    uint64_t rounds = 0, sampled = 0;
};

// The window between two reads, CPU not yet counted.
// Background processes asleep in their main loop (wait type Activity) are left out, as the
// pg_stat_activity sampler leaves them out, and so are other clients waiting for their client
// (Client:ClientRead: idle, as far as the profile can tell). The load's Client:ClientRead is
// kept: its time waiting for the load generator, between transactions too.
SamplingWindow samplingWindow(const SamplingCounts& start, const SamplingCounts& now, int referencePid,
                              const BackendClasses& classes);
// Adds each process's CPU samples (rounds - samples, as of its AliveAt) to the window's counts.
void addCpuSamples(SamplingWindow& w, const BackendClasses& classes, const std::map<int, AliveAt>& alive, int referencePid);

} // namespace scalelab
