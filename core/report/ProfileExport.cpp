#include "report/ProfileExport.h"

#include "report/FlameGraph.h"
#include "util/AtomicFile.h"
#include "util/Error.h"

#include <filesystem>

namespace scalelab {
namespace {

std::string fileWord(const std::string& s) {
    std::string out;
    for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : c == ' ' ? '-' : '_';
    return out;
}

// The point, with a profile; Error saying what is missing otherwise.
const PointProfile& profiledPoint(const std::vector<PointProfile>& points, PointAxis axis, const std::string& series, int x) {
    bool seriesFound = false;
    for (const auto& p : points) {
        seriesFound = seriesFound || p.series == series;
        if (p.series != series || p.clients != x) continue;
        if (p.runs.empty()) {
            std::string why;
            for (const auto& w : p.why) why += (why.empty() ? "" : "; ") + w;
            throw Error(series + " at " + pointText(axis, x) + " has no CPU profile: " + why);
        }
        return p;
    }
    if (!seriesFound) throw Error("no completed runs of a series '" + series + "'");
    throw Error(series + " has no completed run at " + pointText(axis, x));
}

} // namespace

std::vector<std::string> writeFoldedFiles(const std::vector<PointProfile>& points, PointAxis axis, const std::string& dir) {
    std::string why;
    for (const auto& p : points)
        for (const auto& w : p.why)
            if (why.find(w) == std::string::npos) why += (why.empty() ? "" : "; ") + w;
    bool any = false;
    for (const auto& p : points) any = any || !p.runs.empty();
    if (!any) throw Error("no run of the experiment has a CPU profile" + (why.empty() ? std::string() : ": " + why));
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw Error("cannot create " + dir + ": " + ec.message());
    std::vector<std::string> written;
    for (const auto& p : points) {
        if (p.runs.empty()) continue;
        std::map<std::string, uint64_t> merged;
        for (const auto& r : p.runs)
            for (const auto& [stack, n] : r.folded) merged[stack] += n;
        std::string file = (std::filesystem::path(dir) / (fileWord(p.series) + "-" + fileWord(pointText(axis, p.clients)) + ".folded")).string();
        writeFileAtomically(file, foldedText(merged));
        written.push_back(file);
    }
    return written;
}

std::string pointFlameSvg(const std::vector<PointProfile>& points, PointAxis axis, const std::string& series, int x) {
    const PointProfile& p = profiledPoint(points, axis, series, x);
    FlameLayout layout = layoutFlame(p.perKTx());
    FlameSvgOptions o;
    o.title = "CPU profile: " + series + ", " + pointText(axis, x) + " (" + std::to_string(p.runs.size()) + " round" +
              (p.runs.size() == 1 ? "" : "s") + ", " + std::to_string(p.samples()) + " samples)";
    if (layout.total > 0) o.samplesPerValue = static_cast<double>(p.samples()) / layout.total;
    return flameSvg(layout, o);
}

std::string diffFlameSvg(const std::vector<PointProfile>& points, PointAxis axis, const std::string& baseline,
                         const std::string& candidate, int x) {
    const PointProfile& a = profiledPoint(points, axis, baseline, x);
    const PointProfile& b = profiledPoint(points, axis, candidate, x);
    FlameSvgOptions o;
    o.title = "CPU per transaction: " + candidate + " against " + baseline + ", " + pointText(axis, x) +
              " (red: more in " + candidate + ", blue: less)";
    return flameSvg(layoutFlameDiff(a.perKTx(), b.perKTx()), o);
}

} // namespace scalelab
