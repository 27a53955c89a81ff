#include "sweep/PlanCommands.h"

namespace scalelab {
namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

void hostLines(std::vector<std::string>& out, const std::string& path, const std::string& host,
               const std::vector<std::string>& sshCommand, const std::string& scalelab) {
    std::string program = scalelab.empty() ? "scalelab" : scalelab;
    if (host == "local") {
        out.push_back(path + ": runs " + program + " here");
        return;
    }
    std::string ssh = sshCommand.empty() ? "ssh -o BatchMode=yes" : joined(sshCommand);
    out.push_back(path + ": runs " + program + " on " + host + " through `" + ssh + "`");
}

} // namespace

std::vector<std::string> commandsOfPlan(const SweepPlan& plan) {
    std::vector<std::string> out;
    if (plan.pgBindir) out.push_back("$.target.pg_bindir: runs PostgreSQL's programs from " + plan.pgBindir->string());
    for (size_t i = 0; i < plan.series.size(); ++i)
        if (plan.series[i].pgBindir)
            out.push_back("$.series[" + std::to_string(i) + "].pg_bindir: runs PostgreSQL's programs from " +
                          plan.series[i].pgBindir->string());
    if (plan.serverHost)
        hostLines(out, "$.target.host", plan.serverHost->host, plan.serverHost->sshCommand, plan.serverHost->scalelab);
    if (plan.metricsHost)
        hostLines(out, "$.target.metrics_host", plan.metricsHost->host, plan.metricsHost->sshCommand,
                  plan.metricsHost->scalelab);
    if (plan.loadHosts)
        for (size_t i = 0; i < plan.loadHosts->hosts.size(); ++i)
            hostLines(out, "$.load_hosts[" + std::to_string(i) + "]", plan.loadHosts->hosts[i], plan.loadHosts->sshCommand,
                      plan.loadHosts->scalelab);
    Workload w = plan.workload();
    for (const auto& script : w.scripts)
        for (const auto& c : script.commands)
            if (c.kind == Command::Kind::Shell || c.kind == Command::Kind::SetShell)
                out.push_back("script " + script.name + " line " + std::to_string(c.line) + ": " + c.firstLine);
    return out;
}

} // namespace scalelab
