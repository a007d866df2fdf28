// The lab's CUDA subset, construct by construct: each kernel below writes what it computed into
// P, and the test holds it to values worked out by hand (C's rules: integer division truncates,
// unsigned wraps, float arithmetic stays float). One thread unless the test says otherwise.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "lab/interp/interp.h"

namespace tilescope::interp {
namespace {

struct Ran {
  std::vector<float> P;
  std::string printed;
  std::optional<Diagnostic> error;
};

Ran run(const std::string& source, int outputs, Dim3 block = {1, 1, 1}, std::vector<long long> templateArgs = {}) {
  Ran r;
  const Compiled c = compileSource(source);
  if (c.error) return r.error = c.error, r;
  const Instance instance = instantiate(*c.unit, c.kernels[0].name, templateArgs);
  if (instance.error) return r.error = instance.error, r;
  std::vector<float> M(64), N(64);
  for (int i = 0; i < 64; ++i) M[size_t(i)] = float(i), N[size_t(i)] = float(2 * i);
  r.P.assign(size_t(outputs), std::numeric_limits<float>::quiet_NaN());
  RunRequest q;
  q.program = instance.program.get();
  q.block = block;
  for (bool pointer : c.kernels[0].parameterIsPointer)
    q.arguments.push_back(pointer ? Argument::matrix(int(q.arguments.size())) : Argument::number(8));
  float* data[3] = {M.data(), N.data(), r.P.data()};
  const long long counts[3] = {64, 64, outputs};
  for (int m = 0; m < 3; ++m) q.matrices[m] = data[m], q.counts[m] = counts[m];
  const RunResult ran = runProgram(q);
  r.error = ran.error;
  r.printed = ran.printed;
  return r;
}

TEST(InterpSubset, IntegerArithmeticFollowsC) {
  const Ran r = run(R"(__global__ void k(float* M, float* N, float* P, int n) {
  int a = -7, b = 2;
  unsigned u = 0u;
  u = u - 1u;
  P[0] = a / b;          // -3: truncation toward zero
  P[1] = a % b;          // -1
  P[2] = (u == 4294967295u) ? 1.0f : 0.0f;
  P[3] = (1 << 4) | 3;   // 19
  P[4] = 7 ^ 5;          // 2
  P[5] = ~0 & 0xff;      // 255
  P[6] = (a < b) + (a > b) * 10;  // 1
  P[7] = 10 >> 1;        // 5
})", 8);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.P, (std::vector<float>{-3, -1, 1, 19, 2, 255, 1, 5}));
}

TEST(InterpSubset, FileScopeConstantsSizeArrays) {
  const Ran r = run(R"(const int TILE = 2;
constexpr int AREA = TILE * TILE;
__global__ void k(float* M, float* N, float* P, int n) {
  __shared__ float tile[TILE][TILE];
  float local[AREA];
  local[AREA - 1] = 7.0f;
  tile[1][1] = local[3];
  P[0] = tile[1][1] + AREA;
})", 1);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.P, (std::vector<float>{11}));
}

TEST(InterpSubset, ControlFlowOfEveryKind) {
  const Ran r = run(R"(__device__ int triple(int x) { return 3 * x; }
__global__ void k(float* M, float* N, float* P, int n) {
  int sum = 0;
  for (int i = 0; i < 10; ++i) { if (i == 2) continue; if (i == 6) break; sum += i; }  // 0+1+3+4+5
  P[0] = sum;
  int w = 0; while (w < 5) w += 2;  P[1] = w;       // 6
  int d = 10; do { d--; } while (d > 7);  P[2] = d;  // 7
  int s = 0;
  switch (n) { case 1: s = 1; break; case 8: s = 8; case 9: s += 9; break; default: s = -1; }
  P[3] = s;                                           // 17: case 8 falls through into case 9
  P[4] = triple(n) + (n > 4 ? 100 : 200);              // 124
  bool flag = !(n == 8) || false;  P[5] = flag;        // 0
  size_t big = sizeof(float) * 2;  P[6] = big;         // 8
  P[7] = ceilDiv(n, 3);                                 // 3
})", 8);
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.P, (std::vector<float>{13, 6, 7, 17, 124, 0, 8, 3}));
}

TEST(InterpSubset, FloatArithmeticStaysFloatAndMathIsCUDAs) {
  const Ran r = run(R"(__global__ void k(float* M, float* N, float* P, int n) {
  float third = 1.0f / 3.0f;
  P[0] = third * 3.0f;
  P[1] = fmaf(M[2], N[3], 1.0f);   // 2 * 6 + 1
  P[2] = sqrtf(16.0f) + fminf(2.0f, -1.0f) + fmaxf(2.0f, -1.0f);  // 4 - 1 + 2
  P[3] = min(3, -2) + max(3u, 4u);  // -2 + 4
  P[4] = (float)(int)2.75f + static_cast<float>(7 / 2);  // 2 + 3
  double d = 0.1; P[5] = d * 10.0;
  P[6] = fabsf(-2.5f);
  P[7] = float(n) / 16;
})", 8);
  ASSERT_FALSE(r.error) << r.error->message;
  const float third = 1.0f / 3.0f;
  EXPECT_EQ(r.P, (std::vector<float>{third * 3.0f, 13, 5, 2, 5, float(0.1 * 10.0), 2.5f, 0.5f}));
}

TEST(InterpSubset, ArraysSharedLocalTwoDimensionalAndPointers) {
  const Ran r = run(R"(template <int T>
__global__ void k(float* M, float* N, float* P, int n) {
  __shared__ float tile[T][T];
  __shared__ int counts[4];
  float acc[2][3] = {0};
  int tx = threadIdx.x;
  tile[0][tx] = M[tx];
  counts[tx] = tx * 10;
  __syncthreads();  // read-after-write: the tile is filled before it is read
  for (int i = 0; i < 2; ++i) for (int j = 0; j < 3; ++j) acc[i][j] = i * 3 + j;
  const float* row = M + 8;
  float* out = P + 4 * tx;
  out[0] = tile[0][T - 1 - tx];
  out[1] = acc[1][2];
  out[2] = row[tx];
  out[3] = counts[3 - tx];
})", 16, {4, 1, 1}, {4});
  ASSERT_FALSE(r.error) << r.error->message;
  EXPECT_EQ(r.P, (std::vector<float>{3, 5, 8, 30, 2, 5, 9, 20, 1, 5, 10, 10, 0, 5, 11, 0}));
}

TEST(InterpSubset, DevicePrintfWritesIntoTheLabsOutput) {
  const Ran r = run(R"(__global__ void k(float* M, float* N, float* P, int n) {
  printf("thread %d of %u: %.2f %s\n", threadIdx.x, blockDim.x, M[3], "ok");
})", 1, {2, 1, 1});
  ASSERT_TRUE(r.error);  // %s is not in the subset
  const Ran plain = run(R"(__global__ void k(float* M, float* N, float* P, int n) {
  printf("thread %d of %u: %.2f %%\n", threadIdx.x, blockDim.x, M[3]);
})", 1, {2, 1, 1});
  ASSERT_FALSE(plain.error) << plain.error->message;
  EXPECT_EQ(plain.printed, "thread 0 of 2: 3.00 %\nthread 1 of 2: 3.00 %\n");
}

TEST(InterpSubset, ALocalArrayOverrunStopsTheRunAtItsLine) {
  const Ran r = run(R"(__global__ void k(float* M, float* N, float* P, int n) {
  float acc[4];
  for (int i = 0; i <= 4; ++i)
    acc[i] = 0.0f;
})", 1);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->line, 4);
  EXPECT_EQ(r.error->message, "index 4 is outside the local array 'acc' (4 elements) (block (0, 0), thread (0, 0))");
}

// A stop ends the launch where it happened: thread 1 divides by zero; thread 0, which stored its
// quotient and waits at the barrier, stores nothing and prints nothing after it (P is NaN-filled
// before the run; 100 / (8 - 9) = -100 by hand).
TEST(InterpSubset, NothingHappensAfterARunStops) {
  const Ran r = run(R"(__global__ void k(float* M, float* N, float* P, int n) {
  int d = n - 9 + int(threadIdx.x);
  P[threadIdx.x] = float(100 / d);
  __syncthreads();
  P[2 + threadIdx.x] = 7.0f;
  printf("thread %d after the barrier\n", threadIdx.x);
})", 4, {2, 1, 1});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->line, 3);
  EXPECT_EQ(r.error->message, "division by zero (block (0, 0), thread (1, 0))");
  EXPECT_EQ(r.P[0], -100.0f);
  for (int i = 1; i < 4; ++i) EXPECT_TRUE(std::isnan(r.P[size_t(i)])) << "P[" << i << "] = " << r.P[size_t(i)];
  EXPECT_EQ(r.printed, "");
}

// The interpreter recurses on a thread's fiber stack: nesting is bounded where it is written.
TEST(InterpSubset, NestingDeeperThanTheInterpreterTakesIsRefusedAtItsLine) {
  const std::string deep = std::string(70, '(') + "1" + std::string(70, ')');
  const Compiled c = compileSource("__global__ void k(float* M, float* N, float* P) {\n  P[0] = " + deep + ";\n}\n");
  ASSERT_TRUE(c.error);
  EXPECT_EQ(c.error->line, 2);
  EXPECT_EQ(c.error->message, "this expression is nested more than 64 levels deep: split it");
}

TEST(InterpSubset, WhatIsOutsideTheSubsetIsNamed) {
  const std::pair<const char*, const char*> cases[] = {
      {"__global__ void k(float* M) { auto x = 1; }", "'auto' is outside the lab's CUDA subset: write the type"},
      {"__global__ void k(float* M) { float** q; }", "pointers to pointers are outside the lab's CUDA subset"},
      {"__global__ void k(float* M) { int x = 1; int& r = x; }", "references are outside the lab's CUDA subset"},
      {"__global__ void k(float* M) { struct S { int a; } s; }", "structs are outside the lab's CUDA subset"},
      {"__global__ void k(float* M) { float x = M; }", "a pointer cannot be used as a number here, nor a number as a pointer"},
      // Lowering goes on past none of these (it once threw): the first sentence is the one told.
      {"__global__ void k(float* M) { float x = min(); }", "'min' takes 2 arguments, not 0"},
      {"__global__ void k(float* M) { float* p; p[0] = 1.0f; }",
       "the pointer 'p' must be set where it is declared (float* p = M + i;)"},
      {"__global__ void k(float* M) { M[0] = int(1, 2) + undeclaredName; }", "a conversion such as int(x) takes one value"},
  };
  for (auto [source, words] : cases) {
    const Compiled c = compileSource(source);
    ASSERT_TRUE(c.error) << source;
    EXPECT_EQ(c.error->message, words) << source;
    EXPECT_EQ(c.error->line, 1) << source;
  }
}

}  // namespace
}  // namespace tilescope::interp
