// Where an experiment lives decides which store opens it; the rest of ScaleLab does not ask.
#include "store/ExperimentStore.h"

#include "store/ExperimentFile.h"
#include "store/PgExperiment.h"
#include "store/PgStore.h"

#include <ctime>
#include <filesystem>

namespace scalelab {

bool isStoreLocation(const std::string& location) {
    return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::string experimentName(const std::string& location) {
    if (!isStoreLocation(location)) return std::filesystem::path(location).filename().string();
    try {
        return parseStoreLocation(location).experiment;
    } catch (const std::exception&) {
        return location;  // opening it says what is wrong
    }
}

bool sameExperiment(const std::string& a, const std::string& b) {
    if (isStoreLocation(a) || isStoreLocation(b)) return a == b;
    std::error_code ec;
    return std::filesystem::equivalent(a, b, ec);
}

std::unique_ptr<ExperimentStore> ExperimentStore::create(const std::string& location) {
    if (isStoreLocation(location)) return PgExperiment::create(location);
    return ExperimentFile::create(location);
}

std::unique_ptr<ExperimentStore> ExperimentStore::open(const std::string& location, bool readOnly) {
    if (isStoreLocation(location)) return PgExperiment::open(location, readOnly);
    return ExperimentFile::open(location, readOnly);
}

bool ExperimentStore::beingWritten(const std::string& location) {
    if (isStoreLocation(location)) return PgExperiment::beingWritten(location);
    return ExperimentFile::beingWritten(location);
}

bool ExperimentStore::exists(const std::string& location) {
    if (isStoreLocation(location)) return PgExperiment::exists(location);
    std::error_code ec;
    return std::filesystem::exists(location, ec) && std::filesystem::file_size(location, ec) > 0 && !ec;
}

void ExperimentStore::remove(const std::string& location) {
    if (isStoreLocation(location)) return deleteExperiment(location);
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(location + suffix, ec);
}

std::unique_ptr<ExperimentStore> ExperimentStore::openOrCreate(const std::string& location) {
    return exists(location) ? open(location) : create(location);
}

void ExperimentStore::addProvenance(const nlohmann::json& provenance) { addProvenanceRecord({utcTimestamp(), provenance}); }

std::vector<nlohmann::json> ExperimentStore::provenance() {
    std::vector<nlohmann::json> out;
    for (auto& r : provenanceRecords()) out.push_back(std::move(r.json));
    return out;
}

std::vector<std::string> ExperimentStore::seriesLabels() {
    std::vector<std::string> out;
    for (const auto& s : series()) out.push_back(s.label);
    return out;
}

std::string utcTimestamp() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace scalelab
