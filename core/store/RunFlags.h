#pragma once
// What the sweep (or the user) marked on a stored run. In memory a set of enum values; text
// only where the file, a CSV or JSON is read or written ("unstable,client-bound"). A word this
// ScaleLab does not know (from a newer one) is kept as written, so reading and rewriting a
// run's flags never loses one.
#include <string>
#include <string_view>
#include <vector>

namespace scalelab {

enum class RunFlag {
    Unstable,     // tps still moved during the measured window (steady-state rule)
    ClientBound,  // the load generator used over 90% of its PUs: the point measures the client
    ExtraRound,   // added by the plan's precision rule after the planned rounds
    Included,     // a run that did not complete, counted on purpose (`scalelab runs --include`)
    BelowRate,    // a rate was offered (-R) and the run achieved clearly less: it measured a queue
    SystemMissing,  // some machine figures could not be read (detail.system.missing: which, and why)
    SlowMetrics,    // a reading of the machine took over 10% of the sample interval: intervals were delayed
};

// "unstable", "client-bound", "extra-round", "included", "below-rate", "system-missing", "slow-metrics"
const char* runFlagName(RunFlag flag);

class RunFlags {
public:
    RunFlags() = default;
    RunFlags(std::initializer_list<RunFlag> flags);
    static RunFlags parse(std::string_view text);  // comma-separated, as the file keeps them

    bool has(RunFlag flag) const;
    void add(RunFlag flag);  // once; the order of adding is the order shown
    void remove(RunFlag flag);
    bool empty() const { return known_.empty() && unknown_.empty(); }

    const std::vector<RunFlag>& known() const { return known_; }
    // Every flag's word, known ones first: what is shown and written.
    std::vector<std::string> words() const;
    std::string joined(std::string_view separator = ",") const;

    bool operator==(const RunFlags& o) const { return known_ == o.known_ && unknown_ == o.unknown_; }

private:
    std::vector<RunFlag> known_;
    std::vector<std::string> unknown_;
};

} // namespace scalelab
