# Warnings for every target of ours; -Werror only where asked (the ci preset).
add_compile_options(-Wall -Wextra)
if(SCALELAB_WERROR)
  add_compile_options(-Werror)
endif()

if(SCALELAB_SANITIZE)
  string(REPLACE ";" "," _sanitizers "${SCALELAB_SANITIZE}")
  add_compile_options(-fsanitize=${_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_sanitizers})
endif()
