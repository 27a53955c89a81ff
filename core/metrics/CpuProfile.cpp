#include "metrics/CpuProfile.h"

#include "util/Error.h"
#include "util/JsonField.h"

#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>
#include <zlib.h>

#include <algorithm>
#include <sstream>

namespace scalelab {
namespace {

// A stored profile larger than this unpacked is damaged (a 20 s run at 99 Hz on 256 busy
// backends folds to a few MB).
constexpr uint64_t kMaxFoldedBytes = uint64_t{512} << 20;

std::string base64Of(const std::string& bytes) {
    using namespace boost::archive::iterators;
    using Encode = base64_from_binary<transform_width<std::string::const_iterator, 6, 8>>;
    std::string out(Encode(bytes.begin()), Encode(bytes.end()));
    out.append((3 - bytes.size() % 3) % 3, '=');
    return out;
}

std::string bytesOfBase64(std::string text) {
    using namespace boost::archive::iterators;
    using Decode = transform_width<binary_from_base64<std::string::const_iterator>, 8, 6>;
    size_t padding = 0;
    while (!text.empty() && text.back() == '=' && padding < 2) text.pop_back(), ++padding;
    if (text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") != std::string::npos ||
        text.size() % 4 == 1)
        throw Error("cpu_profile.folded_zlib: not base64");
    std::string out(Decode(text.begin()), Decode(text.end()));
    return out;
}

std::string deflated(const std::string& text) {
    uLongf size = compressBound(text.size());
    std::string out(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(text.data()), text.size(),
                  Z_BEST_COMPRESSION) != Z_OK)
        throw Error("cannot compress a CPU profile");
    out.resize(size);
    return out;
}

std::string inflated(const std::string& packed, uint64_t bytes) {
    if (bytes > kMaxFoldedBytes) throw Error("cpu_profile.folded_bytes: larger than any profile (" + std::to_string(bytes) + ")");
    std::string out(bytes, '\0');
    uLongf size = bytes;
    if (uncompress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(packed.data()), packed.size()) !=
            Z_OK ||
        size != bytes)
        throw Error("cpu_profile.folded_zlib: damaged (does not unpack to folded_bytes)");
    return out;
}

std::string fileNameOf(const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// One frame of `perf script -F pid,ip,sym,dso`: "\t  45e772 LockAcquireExtended (/usr/.../postgres)".
std::string frameName(const std::string& line, size_t lineNo) {
    size_t p = line.find_first_not_of(" \t");
    size_t afterIp = p == std::string::npos ? std::string::npos : line.find(' ', p);
    size_t open = line.rfind(" (");
    if (afterIp == std::string::npos || open == std::string::npos || open < afterIp || line.back() != ')')
        throw Error("perf script line " + std::to_string(lineNo) + ": not a frame (\"" + line.substr(0, 80) + "\")");
    std::string sym = line.substr(afterIp + 1, open - afterIp - 1);
    std::string dso = line.substr(open + 2, line.size() - open - 3);
    bool kernel = dso.rfind("[kernel", 0) == 0;
    if (sym.empty() || sym == "[unknown]") sym = !dso.empty() && dso.front() == '[' ? dso : "[" + fileNameOf(dso) + "]";
    // "pthread_rwlock_unlock@@GLIBC_2.34": the symbol's version says nothing about where time went.
    else if (size_t at = sym.find('@'); at != std::string::npos && at > 0) sym.erase(at);
    // A ';' would split the frame in the folded format; ' ' ends the stack there.
    std::replace(sym.begin(), sym.end(), ';', ':');
    std::replace(sym.begin(), sym.end(), ' ', '_');
    return kernel ? sym + "_[k]" : sym;
}

} // namespace

nlohmann::json toJson(const CpuProfile& p) {
    if (!p.available()) return {{"unavailable", p.unavailable}};
    std::string text = foldedText(p.folded);
    return {{"source", p.source},   {"hz", p.hz},
            {"samples", p.samples},
            {"seconds", p.seconds}, {"stacks", p.folded.size()},
            {"folded_bytes", text.size()}, {"folded_zlib", base64Of(deflated(text))}};
}

CpuProfile cpuProfileFromJson(const nlohmann::json& j) {
    CpuProfile p;
    if (!j.is_object()) throw Error("cpu_profile: not an object");
    if (auto why = unavailableIn(j, "cpu_profile")) {
        p.unavailable = *why;
        return p;
    }
    auto number = [&](const char* key) {
        auto it = j.find(key);
        if (it == j.end() || !it->is_number() || it->get<double>() < 0)
            throw Error(std::string("cpu_profile.") + key + ": missing or not a number of at least 0");
        return it->get<double>();
    };
    auto text = [&](const char* key) {
        auto it = j.find(key);
        if (it == j.end() || !it->is_string()) throw Error(std::string("cpu_profile.") + key + ": missing or not a string");
        return it->get<std::string>();
    };
    p.source = text("source");
    p.hz = number("hz");
    p.seconds = number("seconds");
    p.folded = parseFoldedText(inflated(bytesOfBase64(text("folded_zlib")), static_cast<uint64_t>(number("folded_bytes"))));
    for (const auto& [stack, n] : p.folded) p.samples += n;
    if (p.samples != static_cast<uint64_t>(number("samples")))
        throw Error("cpu_profile.samples: " + std::to_string(static_cast<uint64_t>(number("samples"))) +
                    ", but the stacks hold " + std::to_string(p.samples));
    return p;
}

std::string foldedText(const std::map<std::string, uint64_t>& folded) {
    std::string out;
    for (const auto& [stack, n] : folded) out += stack + " " + std::to_string(n) + "\n";
    return out;
}

std::map<std::string, uint64_t> parseFoldedText(const std::string& text) {
    std::map<std::string, uint64_t> out;
    std::istringstream in(text);
    std::string line;
    for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
        if (line.empty()) continue;
        size_t space = line.rfind(' ');
        uint64_t n = 0;
        bool ok = space != std::string::npos && space > 0 && space + 1 < line.size() &&
                  line.find_first_not_of("0123456789", space + 1) == std::string::npos && line.size() - space <= 19;
        if (ok) n = std::stoull(line.substr(space + 1));
        if (!ok || n == 0)
            throw Error("folded stacks, line " + std::to_string(lineNo) + ": not \"frame;frame;... samples\" (\"" +
                        line.substr(0, 80) + "\")");
        out[line.substr(0, space)] += n;
    }
    return out;
}

std::string postgresProcessKind(const std::string& cmdline) {
    std::string title = cmdline.substr(0, cmdline.find('\0'));
    const std::string prefix = "postgres: ";
    if (title.rfind(prefix, 0) != 0) return "postmaster";  // the postmaster keeps its command line
    std::string rest = title.substr(prefix.size());
    while (!rest.empty() && rest.back() == ' ') rest.pop_back();
    // PostgreSQL 13+ may put the cluster_name first ("postgres: main: walwriter").
    if (size_t colon = rest.find(": "); colon != std::string::npos && rest.find(' ') > colon) rest = rest.substr(colon + 2);
    // Auxiliary processes' titles are their kind alone; some kinds are followed by what they
    // work on ("autovacuum worker bench", "parallel worker for PID 42"). A client's title is
    // "USER DATABASE HOST STATE", whatever the user is called.
    static const char* const alone[] = {"autovacuum launcher", "logical replication launcher", "background writer",
                                        "checkpointer", "walwriter", "archiver", "stats collector", "logger"};
    for (const char* kind : alone)
        if (rest == kind) return kind;
    static const char* const followed[] = {"autovacuum worker", "parallel worker", "logical replication worker",
                                           "logical replication apply worker", "walsender", "walreceiver", "startup"};
    for (const char* kind : followed)
        if (rest.rfind(std::string(kind) + " ", 0) == 0 || rest == kind) return kind;
    return "client backend";
}

std::map<std::string, uint64_t> foldPerfScript(const std::string& text, const std::map<pid_t, std::string>& kindOfPid,
                                               const std::string& unknownKind) {
    std::map<std::string, uint64_t> out;
    std::istringstream in(text);
    std::string line, root;
    std::vector<std::string> frames;  // innermost first, as perf prints them
    bool inSample = false;
    auto flush = [&] {
        if (!inSample) return;
        std::string stack = root;
        for (auto f = frames.rbegin(); f != frames.rend(); ++f) stack += ";" + *f;
        ++out[stack];
        frames.clear();
        inSample = false;
    };
    for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
        if (line.empty()) {
            flush();
            continue;
        }
        if (line[0] == '\t') {  // perf indents frames with a tab, and pads pids with spaces
            if (!inSample) throw Error("perf script line " + std::to_string(lineNo) + ": a frame before its sample's pid");
            frames.push_back(frameName(line, lineNo));
            continue;
        }
        flush();
        size_t begin = line.find_first_not_of(' ');
        size_t end = begin == std::string::npos ? begin : line.find_first_not_of("0123456789", begin);
        if (begin == std::string::npos || end == begin || end - begin > 9 ||
            (end != std::string::npos && line.find_first_not_of(' ', end) != std::string::npos))
            throw Error("perf script line " + std::to_string(lineNo) + ": not a sample's pid (\"" + line.substr(0, 80) + "\")");
        pid_t pid = static_cast<pid_t>(std::stol(line.substr(begin, end - begin)));
        auto kind = kindOfPid.find(pid);
        root = kind == kindOfPid.end() ? unknownKind : kind->second;
        inSample = true;
    }
    flush();
    return out;
}

} // namespace scalelab
