// What a kernel compiled for the emulator may call outside itself (lab_imports.h).
#include "lab_imports.h"

#include <cxxabi.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "kernels/rewrite/declaration_rewrite.h"

namespace tilescope::lab {

namespace {

// The CUDA math library's functions that g++ leaves to libm (each also with an 'f' for float).
constexpr std::array kMath = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh", "cospi",
    "erf", "erfc", "exp", "exp2", "exp10", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "frexp",
    "hypot", "ilogb", "ldexp", "lgamma", "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint",
    "lround", "modf", "nan", "nearbyint", "nextafter", "pow", "remainder", "remquo", "rint", "round", "scalbn",
    "scalbln", "sin", "sincos", "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma", "trunc", "j0", "j1", "jn", "y0",
    "y1", "yn"};

// Device printf (g++ turns printf("...\n") into puts, and fortified builds call __printf_chk),
// device malloc/free and assert, and what the compiler calls on its own: block copies for a
// struct assignment, the stack protector, the C++ runtime's start-up, thread-local storage.
constexpr std::array kRuntime = {
    "printf", "vprintf", "puts", "putchar", "__printf_chk", "malloc", "free", "__assert_fail", "memcpy", "memset",
    "memmove", "__memcpy_chk", "__memset_chk", "__memmove_chk", "__stack_chk_fail", "__stack_chk_guard",
    "__cxa_finalize", "__gmon_start__", "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable", "__cxa_atexit",
    "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort", "__gxx_personality_v0", "_Unwind_Resume",
    "__cxa_pure_virtual", "__dso_handle", "__tls_get_addr", "_Znwm", "_Znam", "_ZdlPv", "_ZdlPvm", "_ZdaPv",
    "_ZdaPvm"};

bool mathFunction(std::string_view s) {
  if (s.starts_with("__") && s.ends_with("_finite")) s = s.substr(2, s.size() - 2 - 7);  // older glibc's fast paths
  for (const char* m : kMath) {
    const std::string_view name(m);
    if (s == name || (s.size() == name.size() + 1 && s.starts_with(name) && s.back() == 'f')) return true;
  }
  return false;
}

template <class T>
T read(const std::string& bytes, std::size_t at, bool big) {
  T v{};
  if (at + sizeof(T) > bytes.size()) return v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  if (big) {
    T r{};
    for (std::size_t i = 0; i < sizeof(T); ++i) r = T((r << 8) | ((v >> (8 * i)) & 0xff));
    v = r;
  }
  return v;
}

// The name a student wrote for `symbol`: a C++ function's unqualified name, a C name as it is.
std::string sourceName(const std::string& symbol) {
  int status = 0;
  char* text = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !text) return symbol;
  std::string d(text);
  std::free(text);
  if (auto paren = d.find('('); paren != std::string::npos) d.erase(paren);
  if (auto colon = d.rfind("::"); colon != std::string::npos) d.erase(0, colon + 2);
  return d;
}

}  // namespace

Result<std::vector<std::string>> importedSymbols(const std::filesystem::path& object) {
  std::ifstream in(object, std::ios::binary);
  const std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (b.size() < 64 || b.compare(0, 4, "\x7f" "ELF") != 0 || b[4] != 2)
    return failure(object.string() + " is not a 64-bit ELF object");
  const bool big = b[5] == 2;
  const uint64_t shoff = read<uint64_t>(b, 0x28, big);
  const uint16_t shentsize = read<uint16_t>(b, 0x3a, big), shnum = read<uint16_t>(b, 0x3c, big);
  std::vector<std::string> out;
  for (uint16_t s = 0; s < shnum; ++s) {
    const uint64_t sh = shoff + uint64_t(s) * shentsize;
    if (read<uint32_t>(b, sh + 4, big) != 11) continue;  // SHT_DYNSYM
    const uint64_t off = read<uint64_t>(b, sh + 0x18, big), size = read<uint64_t>(b, sh + 0x20, big);
    const uint64_t entsize = read<uint64_t>(b, sh + 0x38, big);
    const uint32_t link = read<uint32_t>(b, sh + 0x28, big);
    const uint64_t strOff = read<uint64_t>(b, shoff + uint64_t(link) * shentsize + 0x18, big);
    if (entsize < 24 || off + size > b.size() || strOff >= b.size()) return failure(object.string() + ": a damaged symbol table");
    for (uint64_t e = off + entsize; e + entsize <= off + size; e += entsize) {  // entry 0 is the null symbol
      const uint32_t name = read<uint32_t>(b, e, big);
      const uint16_t section = read<uint16_t>(b, e + 6, big);
      if (section != 0 || strOff + name >= b.size()) continue;  // defined here
      const char* text = b.c_str() + strOff + name;
      if (*text) out.emplace_back(text, strnlen(text, b.size() - strOff - name));
    }
  }
  return out;
}

bool allowedImport(std::string_view symbol) {
  // The lab's headers and the emulator (the runner exports them): a kernel cannot name that
  // namespace (checkStudentSource refuses it), so only the lab's own code reaches these.
  if (symbol.find("9tilescope") != std::string_view::npos) return true;
  for (const char* r : kRuntime)
    if (symbol == r) return true;
  return mathFunction(symbol);
}

std::optional<LabDiagnostic> checkImports(const std::vector<std::string>& imports, std::string_view kernelText,
                                          std::string_view fileName) {
  const std::vector<SourceToken> tokens = tokenizeSource(kernelText);
  // The line that uses the name: the first mention inside a body (a call), else the first.
  auto useOf = [&](const std::string& name) -> const SourceToken* {
    int depth = 0;
    const SourceToken* declared = nullptr;
    for (const SourceToken& t : tokens) {
      depth += t.text == "{" ? 1 : t.text == "}" ? -1 : 0;
      if (t.kind != TokenKind::Identifier || t.text != name) continue;
      if (depth > 0) return &t;
      if (!declared) declared = &t;
    }
    return declared;
  };
  std::optional<LabDiagnostic> first;
  std::size_t firstOffset = 0;
  for (const std::string& symbol : imports) {
    if (allowedImport(symbol)) continue;
    const std::string name = sourceName(symbol);
    const SourceToken* use = useOf(name);
    const std::size_t offset = use ? use->offset : kernelText.size();
    if (first && firstOffset <= offset) continue;
    firstOffset = offset;
    first = LabDiagnostic{std::string(fileName), use ? use->line : 1, 1,
                          name + " is a host (libc) function, or one no device library has: a kernel can call only "
                                 "device functions (the CUDA math library, printf, and the kernel's own __device__ "
                                 "functions); NVRTC would refuse it, so the lab's emulator does too"};
  }
  return first;
}

}  // namespace tilescope::lab
