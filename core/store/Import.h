#pragma once
// Results made elsewhere, into an experiment: pgbench's text output (the final report of
// pgbench 8.4 through 17, with -P progress lines when present), and the tidy runs CSV that
// `scalelab export` writes. Everything is parsed before anything is stored: a malformed file
// fails with file and line, and imports nothing.
#include "store/ExperimentStore.h"
#include "util/Error.h"

#include <string>
#include <vector>

namespace scalelab {

struct ImportedRun {
    RunRecord run;
    std::vector<StoredSample> samples;
};

// One or more reports in `text` (a shell loop's output), each a run of `series`.
std::vector<ImportedRun> parsePgbenchOutput(const std::string& text, const std::string& file, const std::string& series);

// Header with at least series, clients, repetition, tps (any order); more columns of the
// export are read when present.
std::vector<ImportedRun> parseRunsCsv(const std::string& text, const std::string& file);

// The machine the imported runs were measured on, when the user says (`import --cores --pus`):
// the chart then marks its cores and PUs. 0: not told (no markers for those runs).
struct SourceMachine {
    int cores = 0, pus = 0;
};

// Reads and parses every file (CSV when it ends in .csv, else pgbench output), before anything
// is stored or created. Each run carries its file's content hash (detail.source_hash) and the
// source machine when told.
std::vector<ImportedRun> parseImportFiles(const std::vector<std::string>& files, const std::string& series,
                                          const SourceMachine& machine = {});
// A file whose content the experiment holds already (refused unless `again`): its own type, so
// that the window can offer "Import again" instead of quoting the command line's option.
class AlreadyImported : public Error {
public:
    AlreadyImported(const std::string& file, const std::string& experiment);
    const std::string file, experiment;
};

// Stores the runs in one transaction, numbering repetitions after those already in the
// experiment. A file whose content is already imported there is refused (AlreadyImported)
// unless `again`.
int storeImportedRuns(ExperimentStore& store, std::vector<ImportedRun> runs, bool again = false);
// Into the experiment at `path` (a file or a results store location): a new one, created only
// once every source has been read and removed again if storing fails (a failed import leaves
// nothing behind); an existing one only with `append` (else Error naming --append). Returns
// the count.
int importIntoFile(const std::string& path, const std::vector<std::string>& files, const std::string& series,
                   const SourceMachine& machine, bool append, bool again);
// Both steps into an open store. Returns the count.
int importFiles(ExperimentStore& store, const std::vector<std::string>& files, const std::string& series,
                const SourceMachine& machine = {}, bool again = false);

} // namespace scalelab
