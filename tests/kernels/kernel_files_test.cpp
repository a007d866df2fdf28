// What every kernel file promises: the kernel reads like the book (no tilescope call in its
// body, every barrier says which dependence it protects), its facts agree with its
// declarations, and a bug kernel differs from its fixed twin in exactly its faulty lines.
// The sources are the embedded files as written (kernels/kernel_sources.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "kernels/kernel_sources.h"
#include "kernels/catalog.h"
#include "kernels/launch_params.h"
#include "kernels/rewrite/declaration_rewrite.h"

namespace tilescope {
namespace {

struct Line {
  int number;
  std::string code;  // without its comment and trailing blanks
};

// The kernel's lines that hold code.
std::vector<Line> codeLines(std::string_view body) {
  std::vector<Line> out;
  int number = 0;
  std::size_t at = 0;
  while (at < body.size()) {
    const std::size_t nl = std::min(body.find('\n', at), body.size());
    std::string line(body.substr(at, nl - at));
    ++number;
    at = nl + 1;
    if (const auto c = line.find("//"); c != std::string::npos) line.erase(c);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.find_first_not_of(' ') != std::string::npos) out.push_back({number, line});
  }
  return out;
}

// Lines of `b` not in a longest common subsequence with `a`.
std::vector<int> linesOnlyIn(const std::vector<Line>& a, const std::vector<Line>& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = a[i].code == b[j].code ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<int> only;
  std::size_t i = 0, j = 0;
  while (j < m) {
    if (i < n && a[i].code == b[j].code) ++i, ++j;
    else if (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) ++i;
    else only.push_back(b[j++].number);
  }
  return only;
}

std::string body(const KernelInfo& k) {
  const auto source = kernelSource(k.id);
  return source ? std::string(kernelBody(*source)) : std::string();
}

TEST(KernelFiles, EachIsEmbeddedAndListedUnderItsOwnId) {
  for (std::size_t i = 0; i < kKernels.size(); ++i) {
    SCOPED_TRACE(std::string(kKernels[i].name));
    EXPECT_EQ(std::size_t(kKernels[i].id), i);
    EXPECT_FALSE(body(kKernels[i]).empty());
  }
}

TEST(KernelFiles, BodiesAreBookCudaWithNothingOfTilescopeInThem) {
  const std::regex foreign(R"(tilescope|probe|Probe|GlobalView|TILESCOPE)");
  for (const KernelInfo& k : kKernels) {
    SCOPED_TRACE(std::string(k.name));
    const std::string text = body(k);
    for (const Line& line : codeLines(text)) EXPECT_FALSE(std::regex_search(line.code, foreign)) << line.code;
    // The book's signature; the ladder's top rungs promise their block size first.
    static const std::regex signature(
        R"(__global__ void (__launch_bounds__\([^\n]*\)\s*)?matrixMulKernel\(float\* M, float\* N, float\* P,)");
    EXPECT_TRUE(std::regex_search(text, signature));
  }
}

TEST(KernelFiles, EveryBarrierSaysWhichDependenceItProtects) {
  int barriers = 0;
  for (const KernelInfo& k : kKernels) {
    const std::string text = body(k);
    std::size_t at = 0;
    while ((at = text.find("__syncthreads();", at)) != std::string::npos) {
      const std::string line = text.substr(at, text.find('\n', at) - at);
      EXPECT_TRUE(line.find("read-after-write") != std::string::npos ||
                  line.find("write-after-read") != std::string::npos)
          << k.name << ": " << line;
      ++barriers;
      at += 1;
    }
  }
  EXPECT_GE(barriers, 20);  // two per phase in most of the twelve kernels
}

TEST(KernelFiles, FactsNameTheTilesTheDeclarationsHold) {
  for (const KernelInfo& k : kKernels) {
    SCOPED_TRACE(std::string(k.name));
    auto rewritten = rewriteDeclarations(*kernelSource(k.id), k.sourceFile);
    ASSERT_TRUE(rewritten) << rewritten.error().message;
    ASSERT_EQ(rewritten->functions.size(), 1u);
    const RewrittenFunction& fn = rewritten->functions[0];
    // The book's three matrices first; rung 9 adds its workspace (global views of role Other).
    std::vector<std::string> params{"M", "N", "P"};
    if (k.id == KernelId::StreamK) params.insert(params.end(), {"partials", "flags"});
    EXPECT_EQ(fn.pointerParams, params);
    KernelLaunch L;
    L.kernel = k.id;
    L.j = L.k = L.l = 8;
    L.tile = 4;
    L.blockX = L.blockY = 4;
    L.tiling = kernelDefaultTiling(k.id, L.j, L.l);  // the ladder's kernels: their teaching tiling
    const auto arrays = kernelSharedArrays(L);
    for (std::size_t i = 0; i < arrays.size(); ++i) {
      const std::string name = i < fn.sharedArrays.size() ? fn.sharedArrays[i] : "";
      const MatrixRole want = name == "Mds" ? MatrixRole::M : name == "Nds" ? MatrixRole::N : MatrixRole::Other;
      EXPECT_EQ(arrays[i].matrix, want) << "shared declaration " << i << " (" << name << ")";
    }
    EXPECT_EQ(kernelSharedTiles(L).bytes > 0, !fn.sharedArrays.empty());
  }
}

TEST(KernelFiles, EachBugDiffersFromItsFixedTwinInExactlyItsFaultyLines) {
  int bugs = 0;
  for (const KernelInfo& k : kKernels) {
    if (k.fixedTwin.empty()) continue;
    SCOPED_TRACE(std::string(k.name));
    const auto twin = kernelByName(k.fixedTwin);
    ASSERT_TRUE(twin) << k.fixedTwin;
    std::vector<int> faulty;
    for (short line : k.faultyLines)
      if (line > 0) faulty.push_back(line);
    EXPECT_EQ(linesOnlyIn(codeLines(body(kernelInfo(*twin))), codeLines(body(k))), faulty);
    ++bugs;
  }
  EXPECT_EQ(bugs, 6);  // the bug gallery's four kernels and the two race kernels (a barrier removed)
}

}  // namespace
}  // namespace tilescope
