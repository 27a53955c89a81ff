#include "metrics/MachineAgent.h"

#include "metrics/MachineReading.h"
#include "metrics/ProcessCpu.h"
#include "util/JsonParse.h"

#include <unistd.h>

#include <istream>
#include <string>

namespace scalelab {

int serveMachineAgent(std::istream& in, const std::function<void(const nlohmann::json&)>& send,
                      const std::function<nlohmann::json()>& provenance, const std::string& root,
                      const AgentQuestion& more) {
    send({{"machine",
           {{"hostname", thisHostName()},
            {"ticks_per_second", sysconf(_SC_CLK_TCK)},
            {"whole_disks", wholeDisks(root)},
            {"provenance", provenance ? provenance() : nlohmann::json::object()}}}});
    pid_t postmaster = 0;
    std::string line;
    while (std::getline(in, line)) {
        nlohmann::json q = parseJsonOrDiscarded(line);
        if (q.is_object() && q.contains("read")) {
            send({{"reading", toJson(readMachine(root, postmaster))}});
        } else if (q.is_object() && q.contains("server") && q["server"].is_object() && q["server"].contains("backend_pid") &&
                   q["server"]["backend_pid"].is_number_integer()) {
            std::string why;
            auto found = postmasterOfBackend(root, q["server"]["backend_pid"].get<pid_t>(), why);
            postmaster = found ? *found : 0;
            if (found) send({{"server", {{"postmaster", *found}}}});
            else send({{"server", {{"why", why}}}});
        } else if (q.is_object() && q.contains("stop")) {
            return 0;
        } else if (nlohmann::json a = q.is_object() && more ? more(q) : nlohmann::json(); !a.is_null()) {
            send(a);
        } else {
            send({{"error", "this agent reads readings of its machine; it does not understand: " + line.substr(0, 200)}});
            return 1;
        }
    }
    return 0;
}

} // namespace scalelab
