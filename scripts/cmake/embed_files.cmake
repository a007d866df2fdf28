# Embeds text files (shaders, kernel sources) into the binary at build time, so the app
# shows exactly the kernel source it was built from and needs no data directory.
#
#   tilescope_embed_files(TARGET <lib> BASE_DIR <dir> FUNCTION <name> FILES <file>...)
# creates the static library <lib> defining `std::span<const EmbeddedFile> tilescope::<name>()`
# (kernels/embedded_file.h) over every file, under the name of its path relative to
# BASE_DIR ("shaders/grid.vert", "kernels/book/tiled.cuh"). Regenerated when a file changes.

set(TILESCOPE_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_files_script.cmake)

function(tilescope_embed_files)
  cmake_parse_arguments(arg "" "TARGET;BASE_DIR;FUNCTION" "FILES" ${ARGN})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${arg_TARGET}_data.cpp)
  set(names "")
  foreach(f IN LISTS arg_FILES)
    file(RELATIVE_PATH rel ${arg_BASE_DIR} ${f})
    list(APPEND names ${rel})
  endforeach()
  string(REPLACE ";" "|" names_arg "${names}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DBASE_DIR=${arg_BASE_DIR} "-DNAMES=${names_arg}" -DOUTPUT=${out}
            -DFUNCTION=${arg_FUNCTION}
            -P ${TILESCOPE_EMBED_SCRIPT}
    DEPENDS ${arg_FILES} ${TILESCOPE_EMBED_SCRIPT}
    COMMENT "Embedding ${names}"
    VERBATIM)
  add_library(${arg_TARGET} STATIC ${out})
  target_include_directories(${arg_TARGET} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()
