// Included (no include guard, on purpose) inside the namespace of one part of a kernel built
// for several tilings, after `inline constexpr std::size_t kTilingPart = I;` and before the
// kernel file: the file's own unqualified call withTiling(kTilings, L.tiling, f) then finds
// this one, which C++20 prefers to kernel_facts.h's for its constraint, and which instantiates
// f for tiling I alone. So each tiling's kernels compile in a unit of their own
// (kernels/cuda/CMakeLists.txt); the part answers no other tiling.
template <std::size_t N, class F>
  requires(N > 0)
bool withTiling(const std::array<::tilescope::Tiling, N>& built, const ::tilescope::Tiling& t, F&& f) {
  if constexpr (kTilingPart < N) {
    if (built[kTilingPart] == t) {
      f(std::integral_constant<std::size_t, kTilingPart>{});
      return true;
    }
  }
  return false;
}
