# core must stay plain C++17: it is the headless, embeddable part of ScaleLab.
# Fail the configure step if anyone links a Qt target into it.
get_target_property(_core_libs scalelab_core LINK_LIBRARIES)
foreach(_lib IN LISTS _core_libs)
  if(_lib MATCHES "Qt")
    message(FATAL_ERROR "scalelab_core links ${_lib}: core must not depend on Qt (see docs/ARCHITECTURE.md)")
  endif()
endforeach()
