// visitKernel(id, f): f(Facts{}) of kernel `id`. Include it (no include guard, on purpose)
// inside a namespace that holds one namespace per kernel file, right after the generated
// list of kernel files (kernels_gen/all_*.h): each executor's translation unit does.
template <class F>
auto visitKernel(::tilescope::KernelId id, F&& f) {
  switch (id) {
#define TILESCOPE_VISIT_KERNEL(id, room, file) \
  case ::tilescope::KernelId::id:        \
    return f(file::Facts{});
    TILESCOPE_KERNELS(TILESCOPE_VISIT_KERNEL)
#undef TILESCOPE_VISIT_KERNEL
  }
  return f(naive::Facts{});  // not reached: the switch names every kernel
}
