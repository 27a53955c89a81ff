#pragma once
// How a run ended, and the names files and commands use for it: a header of its own, so that
// what reads stored runs need not include the load generator's interface.
#include <optional>
#include <string_view>

namespace scalelab {

// How a run ended: all of its window measured, failed (clients aborted, the server went away),
// or stopped by the user with what it measured kept.
enum class RunStatus { Completed, Failed, Stopped };
const char* runStatusName(RunStatus status);  // "completed", "failed", "stopped"
// The status a name stands for; files written before ScaleLab used one name for each said
// "aborted" for a stopped run, read as Stopped. None for any other word.
std::optional<RunStatus> runStatusFromName(std::string_view name);

} // namespace scalelab
