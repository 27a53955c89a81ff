# With SCALELAB_UNITY_BUILD, the large targets compile their sources in batches (CMake's unity
# build): the headers and templates every source uses (nlohmann/json, Qt, the standard library)
# are compiled and optimised once per batch instead of once per source. scripts/sanitize and
# the fuzz preset use it: on 2 cores the sanitizer build took 272 s instead of 448 s, the fuzz
# build 145 s instead of 216 s (README, "Building by hand"); the release preset (the README's
# first command, a newcomer's build) uses it too (issue 65). The main CI build and the dev
# preset compile each source on its own, so that what the main suite tests is what a developer
# builds, and a missing #include shows there. Helpers in anonymous namespaces need
# names of their own across a target's sources: in one batch they meet, and a call can quietly
# pick another source's helper of the same name (Provenance.cpp's file-reading firstLineOf and
# util/Format.h's did, and only a warning for the unused one told).
if(NOT SCALELAB_UNITY_BUILD)
  return()
endif()
foreach(target scalelab_core scalelab_models scalelab_ui scalelab unit_tests)
  if(TARGET ${target})
    set_property(TARGET ${target} PROPERTY UNITY_BUILD ON)
  endif()
endforeach()
if(TARGET unit_tests AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # A test fixture in an anonymous namespace is fine in a source of its own; in a batch, GCC
  # takes the included source for a header and warns that TEST_F's class derives from it.
  target_compile_options(unit_tests PRIVATE -Wno-subobject-linkage)
endif()
