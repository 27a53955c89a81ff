# Run as a test: fails when a file under DIR includes a header matching PATTERN (a regex on
# the included name). Keeps layering rules true: core has no Qt, ui/models has no Qt Charts.
#   cmake -DDIR=... -DPATTERN=... -DWHAT="Qt" -P CheckNoIncludes.cmake
file(GLOB_RECURSE _files "${DIR}/*.h" "${DIR}/*.cpp" "${DIR}/*.in")
foreach(_f IN LISTS _files)
  file(STRINGS "${_f}" _hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](${PATTERN})")
  if(_hits)
    message(FATAL_ERROR "${_f} includes ${WHAT}: ${_hits}")
  endif()
endforeach()
list(LENGTH _files _n)
message(STATUS "${DIR}: ${_n} files checked, no ${WHAT} include")
