/* mcpp's configuration for the page (emscripten, wasm32): what its own configure script writes
 * for Debian's libmcpp (configure --enable-mcpplib on Linux), so the page's preprocessor is the
 * desktop's: a compiler-independent build, its library entry, C99's headers and long long.
 * The lab passes -N (no predefined macros) and never lets it search an include directory, so no
 * system path is configured. Compiled with the fetched source (app/lab/interp/CMakeLists.txt). */
#define COMPILER INDEPENDENT
#define CPU "wasm32"
#define HAVE_INTMAX_T 1
#define HAVE_INTTYPES_H 1
#define HAVE_LONG_LONG 1
#define HAVE_MEMORY_H 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STPCPY 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define HOST_CMP_NAME "clang (emscripten)"
#define GCC_MAJOR_VERSION "14"
#define GCC_MINOR_VERSION "0"
#define HOST_COMPILER GNUC
#define HOST_SYSTEM SYS_LINUX
#define LL_FORM "j"
#define MCPP_LIB 1
#define PACKAGE "mcpp"
#define PACKAGE_NAME "mcpp"
#define PACKAGE_STRING "mcpp 2.7.2"
#define PACKAGE_TARNAME "mcpp"
#define PACKAGE_VERSION "2.7.2"
#define STDC_HEADERS 1
#define SYSTEM SYS_LINUX
#define VERSION "2.7.2"
