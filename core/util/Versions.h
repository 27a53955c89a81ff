#pragma once
// Versions of ScaleLab and the libraries it runs with, for --version, the About
// dialog and the provenance recorded with every run.
#include <string>
#include <utility>
#include <vector>

namespace scalelab {

std::string scalelabVersion();
// {"libpq", "15.18"}, {"libpqxx", "6.4.5"}, {"hwloc", "2.9.0"}: the versions loaded at run time
// for libpq, the version compiled against for the others.
std::vector<std::pair<std::string, std::string>> libraryVersions();

} // namespace scalelab
