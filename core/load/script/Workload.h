#pragma once
// What each client runs: weighted scripts (built-in or from files), or a replay log of
// SQL statements. Built from the command line's -b/-f/-S/-N/--replay or a sweep plan.
#include "load/script/Script.h"

#include <string>
#include <vector>

namespace scalelab {

enum class QueryMode { Simple, Extended, Prepared };
QueryMode parseQueryMode(const std::string& text);  // throws Error naming the choices
const char* queryModeName(QueryMode mode);

struct Workload {
    VariableTable vars;
    std::vector<Script> scripts;  // chosen per transaction by weight
    bool replay = false;          // scripts are the statements of a replay log, run in sequence
    bool shuffle = false;         // replay: each client in its own random order
    std::string replaySource;
    std::string replayFileText;   // the replay file's text, recorded with results
    // A script set ScaleLab built whose results have terms of their own: "tprocc" (TPROC-C's six
    // scripts, NOPM and TPM); empty for pgbench's scripts and the user's.
    std::string scriptSet;
    // Keying and thinking times of the scripts (Script::keyingS, thinkMeanS), as a share of the
    // specification's: 0 none, 1 TPC-C's own. Recorded with the result.
    double keyingThinking = 0;

    // -D NAME=VALUE: a variable every client starts with, as text (pgbench's -D).
    struct Define {
        int slot;
        std::string value;
    };
    void define(const std::string& nameEqualsValue);  // throws Error in pgbench's words
    const std::vector<Define>& defines() const { return defines_; }
    bool isDefined(int slot) const;

    bool usesScale() const;
    std::string describe() const;      // "<builtin: TPC-B (sort of)>", "a.sql@2, b.sql@1", "replay of log.sql (shuffled)"
    int totalWeight() const;

    void addBuiltin(const std::string& nameAtWeight);
    void addScriptText(const std::string& text, const std::string& source, int weight = 1);
    void addScriptFile(const std::string& pathAtWeight);   // throws Error when unreadable
    // One statement per transaction, in file order: SQL ending with ';' (several lines allowed),
    // "--" comments; no meta commands and no variables. Throws ScriptError with file:line:column.
    static Workload replayText(const std::string& text, const std::string& source, bool shuffle);
    static Workload replayFile(const std::string& path, bool shuffle);

private:
    std::vector<Define> defines_;
};

} // namespace scalelab
