# The Debian package: `cpack --preset package` (or `cpack -G DEB` in a build directory) makes
# scalelab_VERSION_ARCH.deb from what `cmake --install` installs, under /usr. Its library
# dependencies are computed from the binary (dpkg-shlibdeps); the programs it runs are named
# here. tests/package/package_test.sh installs it into a clean Debian 12 root and runs lintian
# (docs/packaging.md).
set(SCALELAB_PACKAGE_MAINTAINER "ScaleLab developers <dev@scalelab.org>"
    CACHE STRING "The package's Maintainer field: who builds and answers for this .deb")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME scalelab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "run and chart database scaling experiments")
# The extended description; the first line of the field is the summary above.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "ScaleLab answers questions like whether SMT is good or bad for PostgreSQL
on a given machine, in one place: a pgbench-compatible load generator,
sweeps over client counts and series (SMT on and off, core counts,
settings, builds) with repetitions and resume, CPU placement through hwloc,
live charts, scaling curves with error bars, comparisons with verdicts, USL
fits, exports, a command line for everything, and an embedded PostgreSQL
server for a first result with no set-up.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${SCALELAB_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The embedded server runs PostgreSQL's own initdb, pg_ctl and postgres (any of these versions;
# server/PgBinaries.cpp finds them); load hosts and metrics hosts are reached with ssh.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "postgresql-15 | postgresql-16 | postgresql-17 | postgresql")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client")
# diagnostics.cpu_profile records with perf; a sweep that asks for it without perf is refused.
# The waits come from pg_wait_sampling where the embedded server can preload it, else from
# pg_stat_activity (docs/metrics.md): suggested for the server versions the package accepts.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "linux-perf, postgresql-15-pg-wait-sampling | postgresql-16-pg-wait-sampling | postgresql-17-pg-wait-sampling")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
include(CPack)
