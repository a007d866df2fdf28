// What a kernel compiled for the emulator may call outside itself (lab_imports.cpp).
//
// g++ compiles a lab kernel as host code, where any libc function can be declared and called
// (`extern "C" __device__ int fstat(int, struct stat*);`): NVRTC would refuse that, since device
// code calls only device functions. So the compiled object is read before it is run: every
// symbol it imports must be one the device runtime has (the CUDA math library, printf), one
// the lab's own headers and emulator define, or one the compiler itself calls (memcpy for a
// struct copy, the stack protector). Anything else is a compile error at the line that names it.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/result.h"
#include "lab.h"

namespace tilescope::lab {

// The undefined symbols of a shared object's dynamic symbol table, read from its ELF headers
// (64-bit, either byte order); an Error for a file that is no ELF shared object.
Result<std::vector<std::string>> importedSymbols(const std::filesystem::path& object);

// Whether a kernel may import `symbol` (a mangled or plain name).
bool allowedImport(std::string_view symbol);

// The import that is not allowed whose use comes first in `kernelText` (the kernel as compiled,
// its lines the file's), as a compile error at the line that calls it (or, never called, declares
// it); nothing when all are allowed.
std::optional<LabDiagnostic> checkImports(const std::vector<std::string>& imports, std::string_view kernelText,
                                          std::string_view fileName);

}  // namespace tilescope::lab
