# Every library ScaleLab uses, found in one place, each as an imported target (Debian 12
# packages: scripts/install-deps). Targets link what they use; core keeps its private ones
# private, so SQLite, libpqxx, Eigen, Boost and libcsv headers do not reach ui/ or app/.
find_package(PkgConfig REQUIRED)
pkg_check_modules(PQ REQUIRED IMPORTED_TARGET libpq)
pkg_check_modules(PQXX REQUIRED IMPORTED_TARGET libpqxx)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)
# CPU profiles are stored compressed with their runs.
find_package(ZLIB REQUIRED)

# libcsv (RFC 4180 reading) ships neither a CMake package nor a .pc file.
find_library(CSV_LIBRARY csv REQUIRED)
find_path(CSV_INCLUDE_DIR csv.h REQUIRED)
add_library(Csv::Csv UNKNOWN IMPORTED)
set_target_properties(Csv::Csv PROPERTIES IMPORTED_LOCATION "${CSV_LIBRARY}" INTERFACE_INCLUDE_DIRECTORIES "${CSV_INCLUDE_DIR}")

if(NOT SCALELAB_FUZZ)
  find_package(CLI11 REQUIRED)
  find_package(Qt6 REQUIRED COMPONENTS Core Gui Widgets Charts Svg)
  # What only the tests use: `scripts/install-deps run` (the README's first command) installs
  # none of it, and the release preset builds no test.
  if(SCALELAB_BUILD_TESTS)
    find_package(Qt6 REQUIRED COMPONENTS Test)
    find_package(GTest REQUIRED)
    # cpp-httplib: the tests' HTTP client for the Prometheus endpoint (its server is ScaleLab's
    # own, core/live/HttpServer.h, which bounds what Debian 12's cpp-httplib 0.11 does not).
    pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET cpp-httplib)
  endif()
endif()
