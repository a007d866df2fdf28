// Runs a kernel's Facts::launch with an executor that records what it would launch. The
// kernels are compiled here as the emulator compiles them (the traced build), because the
// Facts name their kernel function; nothing of them runs.
#include "tests/lab/interp/kernel_launches.h"

#include <cctype>
#include <type_traits>

#include "kernels/kernel_facts.h"
#include "kernels/ladder/tensor_map_rules.h"
#include "kernels/trace/traced_surface.h"
#include "kernels/trace/arrivals_traced.h"

namespace tilescope::captured {
#include "kernels_gen/all_traced.h"
#include "kernels/visit_kernel.h"
}  // namespace tilescope::captured

namespace tilescope::interp {

namespace {

struct CaptureExec {
  struct Args {
    GlobalView<float> M, N, P;
  };
  template <class F>
  bool withTile(int tile, F&& f) {
    return withTileWidth(AllTileWidths{}, tile, f);
  }
  TensorMapView tensorMap(const GlobalView<float>& matrix, int rows, int cols, int boxRows, int boxCols, TileSwizzle s) {
    captured.problem = "a tensor map";
    return tensorMapOf(matrix, rows, cols, boxRows, boxCols, s);
  }
  WorkspaceViews workspace(const Args& a, std::size_t, std::size_t) {
    captured.problem = "a global workspace";
    return workspaceOf(a.P, nullptr, 0, nullptr, 0, 1);
  }
  Argument argumentOf(const GlobalView<float>& v) { return Argument::matrix(int(v.role())); }
  template <class T>
  Argument argumentOf(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      return Argument::number((long long)v);
    } else {
      captured.problem = "an argument that is neither a matrix nor a number";
      return Argument::number(0);
    }
  }
  template <class... Params, class... A>
  void launch(void (*)(Params...), const KernelLaunch& L, A... args) {
    captured.grid = {L.gridX, L.gridY, 1};
    captured.block = {L.blockX, L.blockY, 1};
    captured.dynamicSharedBytes = std::size_t(L.dynamicSharedFloats) * sizeof(float);
    (captured.arguments.push_back(argumentOf(args)), ...);
    ++launches;
  }
  CapturedLaunch captured;
  int launches = 0;
};

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace((unsigned char)s.front())) s.remove_prefix(1);
  while (!s.empty() && std::isspace((unsigned char)s.back())) s.remove_suffix(1);
  return std::string(s);
}

// The template arguments of `x.launch(name<a, b>, ...)` in the Facts' text: `decltype(T)::value`
// is the launch's tile, `t.bm` a field of its tiling.
bool templateArguments(std::string_view facts, const KernelLaunch& L, std::vector<long long>& out, std::string& problem) {
  const std::size_t call = facts.find("x.launch(");
  if (call == std::string_view::npos) return problem = "no launch in its facts", false;
  if (facts.find("x.launch(", call + 1) != std::string_view::npos) return problem = "more than one launch in its facts", false;
  const std::size_t open = facts.find_first_of("<,", call);
  if (facts[open] != '<') return true;
  const std::size_t close = facts.find('>', open);
  std::string_view list = facts.substr(open + 1, close - open - 1);
  const Tiling& t = L.tiling;
  const std::pair<const char*, int> fields[] = {{"t.bm", t.bm}, {"t.bn", t.bn}, {"t.bk", t.bk}, {"t.wm", t.wm},
                                                {"t.wn", t.wn}, {"t.tm", t.tm}, {"t.tn", t.tn}};
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    const std::string arg = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    if (arg == "decltype(T)::value") {
      out.push_back(L.tile);
      continue;
    }
    bool known = false;
    for (auto [name, value] : fields)
      if (arg == name) out.push_back(value), known = true;
    if (!known) return problem = "a template argument its facts compute (" + arg + ")", false;
  }
  return true;
}

}  // namespace

CapturedLaunch captureLaunch(const KernelLaunch& L, std::string_view facts) {
  CaptureExec x;
  const CaptureExec::Args args{GlobalView<float>(nullptr, 0, MatrixRole::M, TraceSink{}),
                               GlobalView<float>(nullptr, 0, MatrixRole::N, TraceSink{}),
                               GlobalView<float>(nullptr, 0, MatrixRole::P, TraceSink{})};
  const bool launched = captured::visitKernel(L.kernel, [&](auto f) { return f.launch(x, L, args); });
  CapturedLaunch c = std::move(x.captured);
  if (!launched || x.launches != 1) c.problem = "its facts make " + std::to_string(x.launches) + " launches";
  if (c.problem.empty()) templateArguments(facts, L, c.templateArguments, c.problem);
  return c;
}

}  // namespace tilescope::interp
