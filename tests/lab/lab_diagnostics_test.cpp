// The compiler's messages at the student's line (app/lab/lab_diagnostics.h), without a
// compiler: g++ output captured from the lab (g++ 12, the emulator's unit, the cache in
// /tmp/c) and NVRTC's format (FILE(LINE): error: ..., the quoted line, a caret; "at line N
// of FILE" for an instantiation). Each case says what the student must read: the file, the
// line, plain words, and none of the lab's internals.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>

#include "lab/lab_diagnostics.h"

namespace tilescope::lab {
namespace {

// What a student must never see: the lab's cache and header paths, its namespaces.
void expectNoInternals(const std::string& text) {
  for (const char* word : {"include-", "kernels/", ".cache", "tslab", "tilescope::", "unit.cpp", "GlobalView",
                           "SharedView", "_ZTW", "TsStorage", "blockShared"})
    EXPECT_EQ(text.find(word), std::string::npos) << "'" << word << "' in: " << text;
}

TEST(LabDiagnostics, NumbersAreRangeChecked) {
  EXPECT_EQ(parseSourceNumber("12"), 12);
  EXPECT_EQ(parseSourceNumber("16777216"), kMaxSourceLine);
  EXPECT_EQ(parseSourceNumber("16777217"), std::nullopt);
  EXPECT_EQ(parseSourceNumber("99999999999999"), std::nullopt);  // std::stoi threw here
  EXPECT_EQ(parseSourceNumber("99999999999999999999999999"), std::nullopt);
  EXPECT_EQ(parseSourceNumber("0"), std::nullopt);
  EXPECT_EQ(parseSourceNumber(""), std::nullopt);
  EXPECT_EQ(parseSourceNumber("1a"), std::nullopt);
}

TEST(LabDiagnostics, LocatesGccAndNvrtcLines) {
  auto g = locateLine("tiled.cu:12:11: error: 'bz' was not declared in this scope");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->file, "tiled.cu");
  EXPECT_EQ(g->line, 12);
  EXPECT_EQ(g->column, 11);
  EXPECT_EQ(g->rest, "error: 'bz' was not declared in this scope");
  auto n = locateLine("tiled.cu(12): error: identifier \"bz\" is undefined");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->file, "tiled.cu");
  EXPECT_EQ(n->line, 12);
  EXPECT_EQ(n->rest, "error: identifier \"bz\" is undefined");
  // A file name made to look like a message: the first location wins, its line is no line.
  auto forged = locateLine("x.cu:99999999999999:1: error: y:3:5: error: z");
  ASSERT_TRUE(forged);
  EXPECT_EQ(forged->file, "x.cu");
  EXPECT_EQ(forged->line, 0);
  EXPECT_FALSE(locateLine("In file included from here"));
}

// g++ 12 on fig. 5.9 with the ';' after the load of Nds missing (line 20): the error is in
// the lab's __syncthreads() macro, expanded at line 21.
constexpr const char* kMissingSemicolon =
    "In file included from /tmp/c/run-1-compile-x/unit.cpp:9:\n"
    "missing_semicolon.cu: In function 'void tslab::matrixMulKernel(tilescope::GlobalView<float>, "
    "tilescope::GlobalView<float>, tilescope::GlobalView<float>, int)':\n"
    "/tmp/c/include-521856017f9513fe/kernels/trace/traced_surface.h:49:44: error: invalid use of void expression\n"
    "   49 | #define __syncthreads() (tsRecorder.barrier(__LINE__), TILESCOPE_BARRIER())\n"
    "      |                          ~~~~~~~~~~~~~~~~~~^~~~~~~~~~\n"
    "missing_semicolon.cu:21:1: note: in expansion of macro '__syncthreads'\n";

TEST(LabDiagnostics, AnErrorInTheLabsMacroIsAtTheStudentsLine) {
  auto d = parseDiagnostics(kMissingSemicolon, "missing_semicolon.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "missing_semicolon.cu");
  EXPECT_EQ(d[0].line, 21);
  EXPECT_EQ(d[0].message.rfind("expected ';' before __syncthreads()", 0), 0u) << d[0].message;
  expectNoInternals(d[0].message);
  // With the source, it moves to the end of the statement left open on line 20.
  const std::string source = "__global__ void k(float* M) {\n"     // 1
                             "float x = M[0]\n"                     // 2
                             "__syncthreads();\n}\n";               // 3
  auto s = parseDiagnostics(
      "/tmp/c/include-1/kernels/trace/traced_surface.h:49:44: error: invalid use of void expression\n"
      "k.cu:3:1: note: in expansion of macro '__syncthreads'\n",
      "k.cu");
  explainDiagnostics(s, source);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].line, 2);
  EXPECT_EQ(s[0].column, 15);  // just after M[0]
  EXPECT_NE(s[0].message.find("line 3"), std::string::npos) << s[0].message;
}

TEST(LabDiagnostics, AMissingSemicolonIsAtTheEndOfTheStatementItLeftOpen) {
  // g++ names the next declaration's first token; NVRTC puts its caret there too.
  const std::string source = "__global__ void k(float* M, int w) {\n"  // 1
                             "  int Row = w\n"                          // 2
                             "  int Col = 1;\n"                         // 3
                             "  float x = M[Row + Col]\n"               // 4
                             "}\n";                                     // 5
  std::vector<LabDiagnostic> d = {{"k.cu", 3, 9, "expected ',' or ';' before 'int'"},  // a tab, counted as 8
                                  {"k.cu", 3, 3, "expected a \";\""},
                                  {"k.cu", 4, 24, "expected ';' before '}' token"}};
  explainDiagnostics(d, source);
  EXPECT_EQ(d[0].line, 2);
  EXPECT_EQ(d[0].column, 14);  // after `w`
  EXPECT_EQ(d[0].message, "expected ';' at the end of this line: the statement runs on into line 3");
  EXPECT_EQ(d[1].line, 2);
  EXPECT_EQ(d[2].line, 4);  // g++ already put it at the statement's end: it stays
  EXPECT_EQ(d[2].message, "expected ';' before '}' token");
}

// g++ 12: `int tw = TILE_WIDTH; __shared__ float Mds[tw][tw];` at line 5: errors in the
// generated unit and the emulator's header, reached through the lab's declaration macro and a
// "required from here".
constexpr const char* kSharedByVariable =
    "v.cu: In function 'void tslab::matrixMulKernel(tilescope::GlobalView<float>, tilescope::GlobalView<float>, "
    "tilescope::GlobalView<float>, int)':\n"
    "/tmp/c/run-2-compile-y/unit.cpp:36:104: error: no matching function for call to 'blockShared<float [tw][tw]>(int)'\n"
    "   36 |   auto& name##TsStorage = ::tilescope::lab::noteShared(id, ::tilescope::emu::blockShared<T __VA_ARGS__>(id)); \\\n"
    "v.cu:5:1: note: in expansion of macro 'TILESCOPE_SHARED'\n"
    "In file included from /tmp/c/include-5/kernels/emu/cuda_surface.h:10,\n"
    "                 from /tmp/c/run-2-compile-y/unit.cpp:8:\n"
    "/tmp/c/include-5/kernels/emu/emu_types.h:41:8: note: candidate: 'template<class Array> Array& "
    "tilescope::emu::blockShared(int)'\n"
    "/tmp/c/include-5/kernels/emu/emu_types.h:41:8: note:   template argument deduction/substitution failed:\n"
    "v.cu: In substitution of 'template<class Array> Array& tilescope::emu::blockShared(int) [with Array = float "
    "[tw][tw]]':\n"
    "v.cu:5:1:   required from here\n"
    "/tmp/c/run-2-compile-y/unit.cpp:36:104: error: 'float [tw][tw]' is a variably modified type\n"
    "v.cu:5:1: note: in expansion of macro 'TILESCOPE_SHARED'\n"
    "/tmp/c/run-2-compile-y/unit.cpp:36:104: error:   trying to instantiate 'template<class Array> Array& "
    "tilescope::emu::blockShared(int)'\n"
    "v.cu:5:1: note: in expansion of macro 'TILESCOPE_SHARED'\n";

TEST(LabDiagnostics, ASharedArraySizedByAVariableIsOneMessageAtItsLine) {
  auto d = parseDiagnostics(kSharedByVariable, "v.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "v.cu");
  EXPECT_EQ(d[0].line, 5);
  EXPECT_NE(d[0].message.find("constant"), std::string::npos) << d[0].message;
  EXPECT_NE(d[0].message.find("[tw][tw]"), std::string::npos) << d[0].message;
  expectNoInternals(d[0].message);
}

TEST(LabDiagnostics, TheEmulatorsThreadContextIsNamedAsTheBuiltIn) {
  auto d = parseDiagnostics(
      "z.cu:8:44: error: request for member 'x' in '_ZTWN9tilescope3emu13currentThreadE()->tilescope::emu::"
      "ThreadContext::threadIdx.tilescope::Dim3::z', which is of non-class type 'unsigned int'\n",
      "z.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].line, 8);
  EXPECT_EQ(d[0].message, "'threadIdx.z' is a number ('unsigned int'): it has no member 'x'");
  auto x = parseDiagnostics("z.cu:8:20: error: 'struct tilescope::Dim3' has no member named 'X'\n", "z.cu");
  ASSERT_EQ(x.size(), 1u);
  EXPECT_NE(x[0].message.find("did you mean 'x'?"), std::string::npos) << x[0].message;
  expectNoInternals(x[0].message);
}

TEST(LabDiagnostics, TheViewsAreNamedAsTheDeclarationsTheStudentWrote) {
  EXPECT_EQ(plainMessage("no match for 'operator=' (operand types are 'tilescope::GlobalView<float>' and 'double')"),
            "no match for 'operator=' (operand types are 'float*' and 'double')");
  EXPECT_EQ(plainMessage("cannot convert 'tilescope::SharedView<float, 2>' to 'float'"),
            "cannot convert '__shared__ float[][]' to 'float'");
  EXPECT_EQ(plainMessage("'class tilescope::ElementRef<float, tilescope::GlobalSite<float> >' has no member named 'y'"),
            "'float' has no member named 'y'");
  EXPECT_EQ(plainMessage("in 'void tslab::matrixMulKernel(tilescope::GlobalView<float>, int)'"),
            "in 'void matrixMulKernel(float*, int)'");
  EXPECT_EQ(plainMessage("bad \x1b[31m byte"), "bad  [31m byte");  // no escape reaches a terminal
  expectNoInternals(plainMessage("see /home/u/.cache/tilescope/lab/include-0a/kernels/trace/views.h for MdsTsStorage"));
}

TEST(LabDiagnostics, NvrtcMessagesAtTheStudentsLineAndColumnOnce) {
  // The GPU unit holds the kernel twice (as written and traced): the same error twice.
  const std::string once =
      "tiled.cu(12): error: identifier \"bz\" is undefined\n"
      "  int Col = bz * TILE_WIDTH + tx;\n"
      "            ^\n\n";
  auto d = parseDiagnostics(once + once + "2 errors detected in the compilation of \"/c/include-1/lab-gpu-unit.cu\".\n",
                            "tiled.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].line, 12);
  EXPECT_EQ(d[0].column, 11);  // the caret under bz, the quote indented by 2
  explainDiagnostics(d, "");
  EXPECT_EQ(d[0].message, "identifier \"bz\" is undefined");
  // An error in a header, instantiated from the student's line 14.
  auto h = parseDiagnostics(
      "/home/u/.cache/tilescope/lab/include-0a/kernels/trace/views_global.h(60): error: no operator \"=\" matches these "
      "operands\n"
      "            operand types are: tilescope::GlobalView<float> = float\n"
      "          detected during instantiation of \"void tslab::k(tilescope::GlobalView<float>)\" at line 14 of "
      "tiled.cu\n",
      "tiled.cu");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].file, "tiled.cu");
  EXPECT_EQ(h[0].line, 14);
  expectNoInternals(h[0].message);
  auto numbered = parseDiagnostics("tiled.cu(3): error #20042-D: calling a __host__ function from a __global__ "
                                   "function is not allowed\n",
                                   "tiled.cu");
  ASSERT_EQ(numbered.size(), 1u);
  EXPECT_EQ(numbered[0].line, 3);
  EXPECT_EQ(numbered[0].message, "calling a __host__ function from a __global__ function is not allowed");
}

TEST(LabDiagnostics, AMessageNothingMapsStillNamesTheStudentsFileAndTheConstruct) {
  auto d = parseDiagnostics("lab-entry:2:3: error: cannot convert 'float*' to 'int'\n", "k.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "k.cu");
  EXPECT_EQ(d[0].line, 0);
  EXPECT_NE(d[0].message.find("the kernel's parameters"), std::string::npos) << d[0].message;
  explainDiagnostics(d, "// a comment\n\n__global__ void k(float* M, float* N, int* P, int w) {}\n");
  EXPECT_EQ(d[0].line, 3);  // the kernel's line, for the editor's mark
  // A line past the end of the file (its own `#line 900`): at the kernel's line, saying so.
  std::vector<LabDiagnostic> past = {{"k.cu", 901, 5, "'bz' was not declared in this scope"}};
  explainDiagnostics(past, "#line 900\n__global__ void k(float* M, float* N, float* P, int w) { int x = bz; }\n");
  EXPECT_EQ(past[0].line, 2);
  EXPECT_NE(past[0].message.find("past the end of your file"), std::string::npos) << past[0].message;
}

TEST(LabDiagnostics, ANearMissOfABuiltInIsNamed) {
  std::vector<LabDiagnostic> d = {{"k.cu", 4, 1, "'__syncthread' was not declared in this scope"},
                                  {"k.cu", 5, 1, "identifier \"threadIdy\" is undefined"},
                                  {"k.cu", 6, 1, "'bz' was not declared in this scope; did you mean 'by'?"}};
  explainDiagnostics(d, "");
  EXPECT_EQ(d[0].message, "'__syncthread' was not declared in this scope; did you mean '__syncthreads'?");
  EXPECT_EQ(d[1].message, "identifier \"threadIdy\" is undefined; did you mean 'threadIdx'?");
  EXPECT_EQ(d[2].message, "'bz' was not declared in this scope; did you mean 'by'?");  // g++'s own stays alone
}

TEST(LabDiagnostics, AHugeLineNumberIsNoLineAndNoAbort) {
  // `#line 1 "x.cu:99999999999999:1: error: y"` in the student's file (issue 26: std::stoi aborted).
  auto d = parseDiagnostics(
      "x.cu:99999999999999:1: error: y: In function 'void tslab::matrixMulKernel(tilescope::GlobalView<float>)':\n"
      "x.cu:99999999999999:1: error: y:10:11: error: 'bz' was not declared in this scope\n",
      "evil.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "evil.cu");
  EXPECT_EQ(d[0].line, 0);
  EXPECT_NE(d[0].message.find("#line"), std::string::npos) << d[0].message;
}

TEST(LabDiagnostics, LongLinesAreReadInLinearTime) {
  // `#error` and 40,000 characters (issue 26: std::regex overflowed its stack): cut, at its line.
  const std::string error = "evil.cu:3:2: error: #error " + std::string(40000, 'A') + "\n";
  auto d = parseDiagnostics(error, "evil.cu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].line, 3);
  EXPECT_LT(d[0].message.size(), kMaxMessageChars + 64);
  EXPECT_NE(d[0].message.find("more characters"), std::string::npos);
  // Four lines of 1 MB each that look like locations everywhere: well under a second.
  std::string hard;
  for (const char* piece : {"1:", "(1)", "a:1:1:", "tilescope::A<"}) {
    for (int i = 0; i < 1000000 / int(std::strlen(piece)); ++i) hard += piece;
    hard += "\n";
  }
  const auto start = std::chrono::steady_clock::now();
  auto many = parseDiagnostics(hard + error, "evil.cu");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 1.0);
  ASSERT_FALSE(many.empty());
  EXPECT_EQ(many.back().line, 3);
}

}  // namespace
}  // namespace tilescope::lab
