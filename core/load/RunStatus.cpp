#include "load/RunStatus.h"

namespace scalelab {

const char* runStatusName(RunStatus status) {
    switch (status) {
    case RunStatus::Completed: return "completed";
    case RunStatus::Failed: return "failed";
    case RunStatus::Stopped: return "stopped";
    }
    return "?";
}

std::optional<RunStatus> runStatusFromName(std::string_view name) {
    for (RunStatus s : {RunStatus::Completed, RunStatus::Failed, RunStatus::Stopped})
        if (name == runStatusName(s)) return s;
    if (name == "aborted") return RunStatus::Stopped;
    return std::nullopt;
}

} // namespace scalelab
