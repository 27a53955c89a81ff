# Warnings for every target of ours; -Werror only where asked (the ci preset). -Wshadow: a
# local that hides another is how a loop ends up using the wrong `planned`; -Wpedantic keeps
# the code standard C++17 (GCC and Clang, the fuzz build, compile it).
add_compile_options(-Wall -Wextra -Wshadow -Wpedantic)
if(SCALELAB_WERROR)
  add_compile_options(-Werror)
endif()

if(SCALELAB_SANITIZE)
  string(REPLACE ";" "," _sanitizers "${SCALELAB_SANITIZE}")
  add_compile_options(-fsanitize=${_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_sanitizers})
endif()
