// What the lab refuses before it compiles a student's file (lab_source.h: checkStudentSource):
// at namespace scope, what NVRTC would not take as device code (host functions, main, host
// variables, initializers that run code when the kernel is loaded), each at its line with a
// message a student can act on; and everything a lab file is meant to hold is accepted: every
// example the lab ships, every exercise's starter, every reference solution, and the forms of
// device code listed in the student's guide. The check is linear in the file.
// Refusals through the whole lab (nothing compiled, nothing run) are in lab_cli_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab/exercise.h"
#include "lab/lab_source.h"

namespace tilescope::lab {
namespace {

int countLines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kKernel =
    "__global__ void k(float* M, float* N, float* P, int Width) {\n"
    "  P[threadIdx.x] = M[threadIdx.x] * N[threadIdx.x];\n"
    "}\n";

struct Refused {
  const char* name;
  std::string before;  // put in front of kKernel
  int line;
  const char* says;    // a part of the message
};

TEST(LabScopeCheck, WhatTheGpuWouldNotCompileIsRefusedAtItsLine) {
  const Refused cases[] = {
      {"main", "int main() {\n  return 0;\n}\n", 1, "'main' is host code: the lab launches the kernel itself"},
      {"main after the kernel", "", 4, "'main' is host code"},
      {"host helper", "float twice(float x) { return 2 * x; }\n", 1, "the function 'twice' is host code"},
      {"host-only helper", "\n__host__ float twice(float x) { return 2 * x; }\n", 2, "(__host__ only)"},
      {"host declaration", "#include <stdio.h>\nextern \"C\" int fork();\n", 2, "the function 'fork' is host code"},
      {"static initializer", "#include <stdlib.h>\nstatic int pwned = system(\"touch /tmp/x\");\n", 2,
       "this initializer runs code when the kernel is loaded ('system' is called"},
      {"const initializer", "const int n = rand();\n", 1, "'rand' is called"},
      {"device initializer", "__device__ float root = sqrtf(2.0f);\n", 1, "'sqrtf' is called"},
      {"lambda called at load", "auto r = [] { return 1; }();\n", 1, "this initializer runs code"},
      {"lambda in a constant", "const int r = [] { return 1; }();\n", 1, "this initializer runs code"},
      {"constructor", "struct Spy {\n  __device__ Spy() {}\n};\n\nstatic Spy spy;\n", 5,
       "'spy' is made by a constructor when the kernel is loaded"},
      {"host constructor", "struct Spy {\n  Spy() { }\n};\n", 2, "the member function 'Spy' is host code"},
      {"host member", "struct S {\n  float get() { return 1; }\n};\n", 2, "the member function 'get' is host code"},
      {"static member initializer", "struct S {\n  static inline int n = getpid();\n};\n", 2, "'getpid' is called"},
      {"host variable", "float scale = 2.0f;\n", 1, "'scale' is a variable in host memory"},
      {"host pointer", "const float* table = 0;\n", 1, "'table' is a variable in host memory"},
      {"variable after a struct", "struct S { float a; } s;\n", 1, "'s' is a variable in host memory"},
      {"in a namespace", "namespace util {\nint counter;\n}\n", 2, "'counter' is a variable in host memory"},
      {"in extern C", "extern \"C\" {\nint helper(int x) { return x; }\n}\n", 2, "the function 'helper' is host code"},
      {"host template", "template <int T>\nfloat scaled(float x) { return T * x; }\n", 2,
       "the function 'scaled' is host code"},
  };
  for (const Refused& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string text =
        std::string(c.name) == "main after the kernel" ? kKernel + "int main() { return 0; }\n" : c.before + kKernel;
    const std::optional<LabDiagnostic> d = checkStudentSource(text, "student.cu");
    ASSERT_TRUE(d.has_value()) << text;
    EXPECT_EQ(d->file, "student.cu");
    EXPECT_EQ(d->line, c.line) << d->message;
    EXPECT_GE(d->column, 1);
    EXPECT_NE(d->message.find(c.says), std::string::npos) << d->message;
  }
}

TEST(LabScopeCheck, DeviceCodeAtNamespaceScopeIsAccepted) {
  const std::string text =
      "#define TILE_WIDTH 16\n"
      "#include <cuda_runtime.h>\n"
      "typedef float real;\n"
      "using index_t = int;\n"
      "constexpr int kTile = 2 * TILE_WIDTH;\n"
      "static constexpr float kScale = 1.0f;\n"
      "const int kSteps = 4, kMore = (kSteps + 1) * 2;\n"
      "const float kHalf = float(1) / 2;\n"
      "const unsigned kBytes = sizeof(float) * kTile;\n"
      "__constant__ float kWeights[4] = {1, 2, 3, 4};\n"
      "__device__ int counter = 0;\n"
      "__device__ float scratch[64];\n"
      "extern __shared__ float dynamicTiles[];\n"
      "static_assert(kTile > 0, \"tile\");\n"
      "struct Pair { float a, b; };\n"
      "struct Acc {\n  float sum = 0;\n  __device__ Acc() {}\n  __device__ void add(float x) { sum += x; }\n"
      "  __host__ __device__ float get() const { return sum; }\n  static constexpr int kLanes = 32;\n};\n"
      "enum class Mode { Fast, Slow };\n"
      "template <typename T>\n__device__ __forceinline__ T maxOf(T a, T b) { return a > b ? a : b; }\n"
      "template <int N> struct Fixed { float v[N]; };\n"
      "namespace util {\n__device__ inline float twice(float x) { return 2 * x; }\n}\n"
      "__host__ __device__ int ceilDiv(int a, int b) { return (a + b - 1) / b; }\n"
      "__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }\n"
      "static __device__ float square(float x);\n"
      "__global__ void __launch_bounds__(256) k(float* M, float* N, float* P, int Width) {\n"
      "  auto f = [](float x) { return x; };\n"
      "  Acc acc;\n  acc.add(f(M[threadIdx.x]) * N[threadIdx.x]);\n  P[threadIdx.x] = acc.get();\n"
      "}\n"
      "static __device__ float square(float x) { return x * x; }\n";
  const std::optional<LabDiagnostic> d = checkStudentSource(text, "ok.cu");
  EXPECT_FALSE(d.has_value()) << d->line << ": " << d->message;
}

// Every kernel the lab ships or grades against must still reach the compiler.
TEST(LabScopeCheck, EveryExampleStarterAndSolutionIsAccepted) {
  int checked = 0;
  for (const char* dir : {TILESCOPE_LAB_EXAMPLES, TILESCOPE_LAB_SOLUTIONS}) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      SCOPED_TRACE(entry.path().string());
      const std::optional<LabDiagnostic> d = checkStudentSource(readFile(entry.path()), entry.path().filename().string());
      EXPECT_FALSE(d.has_value()) << d->line << ": " << d->message;
      ++checked;
    }
  }
  auto exercises = loadExercises(TILESCOPE_EXERCISES);
  ASSERT_TRUE(exercises.ok()) << exercises.error().message;
  for (const Exercise& x : *exercises) {
    SCOPED_TRACE(x.id);
    const std::optional<LabDiagnostic> d = checkStudentSource(x.starter, x.id + ".cu");
    EXPECT_FALSE(d.has_value()) << d->line << ": " << d->message;
    ++checked;
  }
  EXPECT_EQ(checked, 8 + 6 + int(exercises->size()));  // 8 examples, 6 solutions
}

// A long file is checked whole and accepted: 20000 device helpers and constants before the
// kernel. That the check is linear in the file is a figure, not a timed test here:
// tests/bench/lab_source_bench.cpp prints its time per size and the fitted complexity.
TEST(LabScopeCheck, ALongFileOfDeviceCodeIsAccepted) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "__device__ float h" + std::to_string(i) + "(float x) { return x * (x + " + std::to_string(i) + "); }\n"
            "const int c" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  text += kKernel;
  EXPECT_FALSE(checkStudentSource(text, "long.cu").has_value());
  text += "int host_side() { return 1; }\n";  // the last line still counts
  const auto d = checkStudentSource(text, "long.cu");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->line, 2 * 20000 + countLines(kKernel) + 1);
}

}  // namespace
}  // namespace tilescope::lab
