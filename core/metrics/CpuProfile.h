#pragma once
// Where the server's CPU goes (issue 62): one run's on-CPU samples of the server's processes,
// as folded stacks ("postgres: client backend;main;PostmasterMain;...;LockAcquireExtended" ->
// samples), the format FlameGraph, inferno and speedscope read. Recorded by CpuProfiler (perf
// record -g on the cpu-clock event) over a run's counted window and stored with the run,
// compressed (zlib, then base64 inside the run's JSON).
//
// A stack's first frame is the process's kind (from its title: "client backend", "walwriter",
// "checkpointer", ...), then the frames from the outermost caller in; a kernel frame ends in
// "_[k]" (FlameGraph's convention) and a frame without a symbol is its file's name in brackets
// ("[postgres]"): a stripped static function, counted where it ran, never dropped.
#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>

namespace scalelab {

constexpr double kDefaultProfileHz = 99;  // not 100: never in step with a 100 Hz timer tick

struct CpuProfile {
    std::string source;   // "perf record -F 99 -e cpu-clock -g"
    double hz = 0;
    uint64_t samples = 0;  // sum of `folded`
    double seconds = 0;    // how long perf recorded
    std::map<std::string, uint64_t> folded;  // "kind;outer;...;inner" -> samples
    std::string unavailable;                 // why there is no profile; the rest is empty then

    bool available() const { return unavailable.empty(); }
};

// {"source", "hz", "samples", "seconds", "stacks", "folded_bytes", "folded_zlib": base64}, or {"unavailable": why}.
nlohmann::json toJson(const CpuProfile& p);
// Throws scalelab::Error naming what is wrong in `j` (a stored run's "cpu_profile").
CpuProfile cpuProfileFromJson(const nlohmann::json& j);

// The folded stacks as FlameGraph's text: one "stack count" line each, sorted.
std::string foldedText(const std::map<std::string, uint64_t>& folded);
// Reads that text back (export --folded's files); throws Error naming the line that is wrong.
std::map<std::string, uint64_t> parseFoldedText(const std::string& text);

// The process kind a PostgreSQL process's title names: "postgres: walwriter " -> "walwriter",
// "postgres: bench bench [local] idle" -> "client backend", the postmaster's command line
// ("/usr/lib/postgresql/15/bin/postgres -D ...") -> "postmaster". `cmdline` as in
// /proc/PID/cmdline (NULs between words).
std::string postgresProcessKind(const std::string& cmdline);

// `perf script -F pid,ip,sym,dso` output folded into stacks; `kindOfPid` names each pid's stack
// root (a pid it does not know: `unknownKind`). Throws Error on text that is not that format.
std::map<std::string, uint64_t> foldPerfScript(const std::string& text, const std::map<pid_t, std::string>& kindOfPid,
                                               const std::string& unknownKind = "postgres");

} // namespace scalelab
