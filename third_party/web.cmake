# The web build's third-party glue (emscripten; included by third_party/CMakeLists.txt).
# Debian ships Dear ImGui and giflib only as x86-64 libraries, so the page compiles their
# sources, fetched from Debian's source packages by scripts/fetch-web-sources (make web runs
# it; nothing is copied into this repository). GLFW and WebGL2 come with emscripten
# (-sUSE_GLFW=3); GL needs no loader in a page (the entry points are linked); stb_image_write
# is the system's header (libstb-dev), compiled here once.
#
# Sets the same names as the desktop glue: TILESCOPE_GUI_DEPS_FOUND, tilescope::glad (empty
# here), tilescope::imgui; and tilescope_giflib for GIF export.

set(TILESCOPE_WEB_SOURCES ${PROJECT_BINARY_DIR}/_sources CACHE PATH "Where scripts/fetch-web-sources unpacked imgui and giflib")
set(imgui_dir ${TILESCOPE_WEB_SOURCES}/imgui)
set(giflib_dir ${TILESCOPE_WEB_SOURCES}/giflib)
find_path(TS_STB_INCLUDE_DIR stb_image_write.h PATHS /usr/include/stb NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
set(missing "")
if(NOT EXISTS ${imgui_dir}/backends/imgui_impl_opengl3.cpp)
  list(APPEND missing "Dear ImGui's source in ${imgui_dir} (run scripts/fetch-web-sources)")
endif()
if(NOT EXISTS ${giflib_dir}/egif_lib.c)
  list(APPEND missing "giflib's source in ${giflib_dir} (run scripts/fetch-web-sources)")
endif()
if(NOT TS_STB_INCLUDE_DIR)
  list(APPEND missing "stb (libstb-dev)")
endif()
if(missing)
  string(REPLACE ";" ", " missing_text "${missing}")
  set(TILESCOPE_GUI_DEPS_FOUND FALSE PARENT_SCOPE)
  set(TILESCOPE_GUI_DEPS_MISSING "${missing_text}" PARENT_SCOPE)
  return()
endif()

add_library(tilescope_glad INTERFACE)
add_library(tilescope::glad ALIAS tilescope_glad)

# ImGui with its GLFW and OpenGL3 backends; ES3 is WebGL2 (1.86 picks ES2 on emscripten
# unless told).
add_library(tilescope_imgui_web STATIC
  ${imgui_dir}/imgui.cpp ${imgui_dir}/imgui_draw.cpp ${imgui_dir}/imgui_tables.cpp ${imgui_dir}/imgui_widgets.cpp
  ${imgui_dir}/backends/imgui_impl_glfw.cpp ${imgui_dir}/backends/imgui_impl_opengl3.cpp
  stb_image_write_impl.c)
target_include_directories(tilescope_imgui_web SYSTEM PUBLIC ${imgui_dir} ${imgui_dir}/backends ${TS_STB_INCLUDE_DIR})
target_compile_definitions(tilescope_imgui_web PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_link_options(tilescope_imgui_web PUBLIC -sUSE_GLFW=3 -sMAX_WEBGL_VERSION=2 -sMIN_WEBGL_VERSION=2 -sFULL_ES3)
add_library(tilescope_imgui ALIAS tilescope_imgui_web)
add_library(tilescope::imgui ALIAS tilescope_imgui_web)

# giflib: the encoder, the quantizer and what they use.
add_library(tilescope_giflib STATIC
  ${giflib_dir}/egif_lib.c ${giflib_dir}/gif_err.c ${giflib_dir}/gif_hash.c ${giflib_dir}/gifalloc.c
  ${giflib_dir}/quantize.c ${giflib_dir}/openbsd-reallocarray.c)
target_include_directories(tilescope_giflib SYSTEM PUBLIC ${giflib_dir})
target_compile_options(tilescope_giflib PRIVATE -w)

set(TILESCOPE_GUI_DEPS_FOUND TRUE PARENT_SCOPE)
set(TILESCOPE_GUI_DEPS_MISSING "" PARENT_SCOPE)
