#include "topo/CpuHotplug.h"

#include "util/Error.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace scalelab {
namespace {

std::optional<CpuSet> readList(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) return std::nullopt;
    std::string text;
    std::getline(in, text);
    try {
        return CpuSet::parse(text);
    } catch (const Error&) {
        return std::nullopt;
    }
}

} // namespace

std::filesystem::path sysfsCpuDir() {
    const char* env = std::getenv("SCALELAB_SYSFS_CPU");
    return env && *env ? env : "/sys/devices/system/cpu";
}

CpuHotplug::CpuHotplug(std::filesystem::path cpuDir) : dir_(std::move(cpuDir)) {}

std::optional<CpuSet> CpuHotplug::online() const { return readList(dir_ / "online"); }
std::optional<CpuSet> CpuHotplug::present() const { return readList(dir_ / "present"); }

std::filesystem::path CpuHotplug::onlineFile(int cpu) const {
    return dir_ / ("cpu" + std::to_string(cpu)) / "online";
}

bool CpuHotplug::hasOnlineFile(int cpu) const {
    std::error_code ec;
    return std::filesystem::exists(onlineFile(cpu), ec);
}

std::optional<bool> CpuHotplug::isOnline(int cpu) const {
    std::ifstream in(onlineFile(cpu));
    int now = -1;
    if (!(in >> now)) return std::nullopt;
    return now == 1;
}

std::string CpuHotplug::whyNotHotpluggable(int cpu) const {
    auto p = present();
    if (p && !p->contains(cpu)) return "CPU " + std::to_string(cpu) + " is not present";
    auto file = onlineFile(cpu);
    if (!hasOnlineFile(cpu))
        return "the kernel cannot take CPU " + std::to_string(cpu) + " offline (" + file.string() + " is missing)";
    if (access(file.c_str(), W_OK) != 0) return "taking CPUs offline needs root (" + file.string() + " is not writable)";
    return "";
}

void CpuHotplug::setOnline(int cpu, bool on) const {
    auto file = onlineFile(cpu);
    {
        std::ofstream out(file);
        out << (on ? "1" : "0");
        out.flush();
        if (!out)
            throw Error("the kernel refused to " + std::string(on ? "bring CPU " : "take CPU ") + std::to_string(cpu) +
                        (on ? " online" : " offline") + " (writing " + file.string() + " failed)");
    }
    std::ifstream in(file);
    int now = -1;
    in >> now;
    if (now != (on ? 1 : 0))
        throw Error("asked the kernel to " + std::string(on ? "bring CPU " : "take CPU ") + std::to_string(cpu) +
                    (on ? " online" : " offline") + ", but " + file.string() + " says " +
                    (now < 0 ? std::string("nothing") : std::to_string(now)));
}

} // namespace scalelab
