// The declaration rewrite changes declarations only: the statements of a kernel, its
// comments and its line numbers stay as written. The kernel below is fig. 5.9 as the book
// prints it (its listing numbers removed), the text students paste.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/rewrite/declaration_rewrite.h"

namespace tilescope {
namespace {

constexpr std::string_view kFigure59 = R"(#define TILE_WIDTH 16
__global__ void matrixMulKernel(float* M, float* N, float* P, int Width) {

    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;

    // Loop over the M and N tiles required to compute P element
    float Pvalue = 0;
    for (int ph = 0; ph < Width/TILE_WIDTH; ++ph) {

        // Collaborative loading of M and N tiles into shared memory
        Mds[ty][tx] = M[Row*Width + ph*TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*Width + Col];
        __syncthreads();

        for (int k = 0; k < TILE_WIDTH; ++k) {
            Pvalue += Mds[ty][k] * Nds[k][tx];
        }
        __syncthreads();
    }
    P[Row*Width + Col] = Pvalue;

}
)";

std::vector<std::string> lines(std::string_view s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t nl = s.find('\n', at);
    out.emplace_back(s.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at));
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return out;
}

TEST(DeclarationRewrite, Figure59KeepsEveryStatementOnItsLine) {
  auto r = rewriteDeclarations(kFigure59, "fig5_9.cu");
  ASSERT_TRUE(r) << r.error().message;
  const auto before = lines(kFigure59), after = lines(r->text);
  ASSERT_EQ(after.size(), before.size());
  // Lines 19-20, 21, 24, 26, 28 of the figure: the statements the trace points at.
  for (int line : {19, 20, 21, 24, 26, 28}) EXPECT_EQ(after[std::size_t(line - 1)], before[std::size_t(line - 1)]);
  EXPECT_EQ(after[1],
            "__global__ void TILESCOPE_LAUNCH_BOUNDS matrixMulKernel(::tilescope::GlobalView<float> M, ::tilescope::GlobalView<float> N, "
            "::tilescope::GlobalView<float> P, int Width) { TILESCOPE_KERNEL_ENTRY(M, N, P)");
  EXPECT_EQ(after[3], "    TILESCOPE_SHARED(float, Mds, 0, [ TILE_WIDTH ] [ TILE_WIDTH ]);");
  EXPECT_EQ(after[4], "    TILESCOPE_SHARED(float, Nds, 1, [ TILE_WIDTH ] [ TILE_WIDTH ]);");
  ASSERT_EQ(r->functions.size(), 1u);
  EXPECT_TRUE(r->functions[0].isKernel);
  EXPECT_EQ(r->functions[0].name, "matrixMulKernel");
  EXPECT_EQ(r->functions[0].pointerParams, (std::vector<std::string>{"M", "N", "P"}));
  EXPECT_EQ(r->functions[0].sharedArrays, (std::vector<std::string>{"Mds", "Nds"}));
}

TEST(DeclarationRewrite, DynamicSharedMemoryAndLocalPointersIntoIt) {
  const std::string src =
      "__global__ void k(const float* __restrict__ M, float *N, float* P, unsigned Mds_sz) {\n"
      "  extern __shared__ float Mds_Nds[];\n"
      "  float *Mds = Mds_Nds;\n"
      "  float* Nds = Mds_Nds + Mds_sz;\n"
      "  __shared__ int count;\n"
      "}\n";
  auto r = rewriteDeclarations(src, "k.cu");
  ASSERT_TRUE(r) << r.error().message;
  const auto after = lines(r->text);
  EXPECT_NE(after[0].find("::tilescope::GlobalView<const float> M"), std::string::npos) << after[0];
  EXPECT_NE(after[0].find("::tilescope::GlobalView<float> N"), std::string::npos) << after[0];
  EXPECT_EQ(after[1], "  TILESCOPE_EXTERN_SHARED(float, Mds_Nds, 0);");
  EXPECT_EQ(after[2], "  auto Mds = ::tilescope::alias( Mds_Nds, 1, \"Mds\");");
  EXPECT_EQ(after[3], "  auto Nds = ::tilescope::alias( Mds_Nds + Mds_sz, 2, \"Nds\");");
  EXPECT_EQ(after[4], "  TILESCOPE_SHARED_SCALAR(int, count, 3);");
}

TEST(DeclarationRewrite, CommentsStringsAndDeviceHelpersAreHandledAsCode) {
  const std::string src =
      "// __shared__ float notAnArray[4];\n"
      "__device__ float dot(const float* a, const float* b, int n) { /* float* x = y; */ return 0; }\n"
      "__device__ int counter;\n"
      "__global__ void k(float* M, float* N, float* P) { const char* s = \"__shared__ float x[2];\"; }\n";
  auto r = rewriteDeclarations(src, "k.cu");
  ASSERT_TRUE(r) << r.error().message;
  const auto after = lines(r->text);
  EXPECT_EQ(after[0], "// __shared__ float notAnArray[4];");
  EXPECT_NE(after[1].find("::tilescope::GlobalView<const float> a"), std::string::npos);
  EXPECT_EQ(after[1].find("TILESCOPE_KERNEL_ENTRY"), std::string::npos);  // helpers record through their views
  EXPECT_NE(after[1].find("/* float* x = y; */"), std::string::npos);
  EXPECT_EQ(after[2], "__device__ int counter;");
  // A local `const char*` initialised from a literal becomes an alias of the pointer itself.
  EXPECT_NE(after[3].find("\"__shared__ float x[2];\""), std::string::npos);
}

TEST(DeclarationRewrite, RefusesWhatTheTraceCannotNameWithFileAndLine) {
  auto threeD = rewriteDeclarations("__global__ void k(float* P) {\n  __shared__ float A[2][2][2];\n}\n", "cube.cu");
  ASSERT_FALSE(threeD);
  EXPECT_EQ(threeD.error().message.rfind("cube.cu:2: ", 0), 0u) << threeD.error().message;
  EXPECT_NE(threeD.error().message.find("two dimensions"), std::string::npos);

  std::string many = "__global__ void k(float* P) {\n";
  for (int i = 0; i < 9; ++i) many += "  __shared__ float A" + std::to_string(i) + "[4];\n";
  many += "}\n";
  auto tooMany = rewriteDeclarations(many, "many.cu");
  ASSERT_FALSE(tooMany);
  EXPECT_EQ(tooMany.error().message.rfind("many.cu:10: ", 0), 0u) << tooMany.error().message;

  auto sized = rewriteDeclarations("__global__ void k(float* P) {\n  extern __shared__ float s[4];\n}\n", "s.cu");
  ASSERT_FALSE(sized);
  EXPECT_EQ(sized.error().message.rfind("s.cu:2: ", 0), 0u) << sized.error().message;
}

}  // namespace
}  // namespace tilescope
