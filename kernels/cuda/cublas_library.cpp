#include "kernels/cuda/cublas_library.h"

#include <dlfcn.h>

#include <string>

namespace tilescope::cuda {
namespace {

// The toolkit's cuBLAS that the build compiled against: by its soname first (the loader's
// paths, as a linked library would be found), then in the toolkit's library folder.
Result<void*> openLibrary() {
  std::string why;
  for (const char* path : {TILESCOPE_CUBLAS_SONAME, TILESCOPE_CUBLAS_DIR "/" TILESCOPE_CUBLAS_SONAME}) {
    if (void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)) return Result<void*>(handle);
    const char* error = dlerror();
    why = error ? error : "unknown reason";
  }
  return failure("cuBLAS (" TILESCOPE_CUBLAS_SONAME ") could not be loaded, so nothing is timed beside it: " + why);
}

template <typename Function>
Status bind(void* handle, const char* name, Function& slot) {
  slot = reinterpret_cast<Function>(dlsym(handle, name));
  if (!slot) return failure(std::string("cuBLAS (" TILESCOPE_CUBLAS_SONAME ") has no ") + name);
  return Ok{};
}

Result<CublasLibrary> load() {
  auto handle = openLibrary();
  if (!handle) return handle.error();
  CublasLibrary lib;
  for (Status s : {bind(*handle, "cublasCreate_v2", lib.create), bind(*handle, "cublasDestroy_v2", lib.destroy),
                   bind(*handle, "cublasSetMathMode", lib.setMathMode), bind(*handle, "cublasSgemm_v2", lib.sgemm),
                   bind(*handle, "cublasGemmEx", lib.gemmEx), bind(*handle, "cublasGetStatusString", lib.statusString),
                   bind(*handle, "cublasGetStatusName", lib.statusName)})
    if (!s) return s.error();
  return lib;  // the handle stays open for the program's life
}

}  // namespace

Result<const CublasLibrary*> cublasLibrary() {
  static const Result<CublasLibrary> loaded = load();
  if (!loaded) return loaded.error();
  return &*loaded;
}

}  // namespace tilescope::cuda
