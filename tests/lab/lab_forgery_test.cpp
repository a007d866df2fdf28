// A class's forgeries do not pass (tests/fixtures/lab/hostile, issue 26's findings): each file
// is graded on an exercise and none passes; each refused one is refused at its own line, in
// words that say why. What remains possible is the teacher's guide's trust model.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lab/exercise.h"
#include "lab/lab.h"
#include "lab/lab_imports.h"
#include "lab/lab_source.h"

namespace tilescope::lab {
namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
std::string hostile(const std::string& name) { return readFile(std::filesystem::path(TILESCOPE_LAB_HOSTILE) / name); }

struct Refusal {
  const char* file;
  int line;
  const char* words;  // what the message must say
};

// Refused before anything is compiled: at the line the comment at each file's top names.
TEST(LabForgery, TheSourceCheckRefusesEachForgeryAtItsLine) {
  for (const Refusal& r : {Refusal{"forge_raw_pointer.cu", 6, "address out of its view"},
                           Refusal{"forge_memcpy.cu", 7, "memcpy reads or copies an object's bytes"},
                           Refusal{"forge_sink_rewrite.cu", 21, "a pointer cast of &N"},
                           Refusal{"forge_cuda_arch.cu", 5, "__CUDA_ARCH__ tells one compiler from another"},
                           Refusal{"include_comment.cu", 3, "#include of a file the lab does not provide"},
                           Refusal{"include_digraph.cu", 3, "'%:' is a digraph"},
                           Refusal{"include_continuation.cu", 3, "#include of a file the lab does not provide"},
                           Refusal{"include_probe.cu", 3, "__has_include"}}) {
    SCOPED_TRACE(r.file);
    const auto d = checkStudentSource(hostile(r.file), r.file);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->file, r.file);
    EXPECT_EQ(d->line, r.line) << d->message;
    EXPECT_NE(d->message.find(r.words), std::string::npos) << d->message;
  }
}

TEST(LabForgery, SpellingsOfTheSameDirectiveAreAllSeen) {
  // One line each; the refusal is at line 2 wherever the directive's parts lie.
  for (const char* text : {"\n# include </etc/passwd>\n", "\n  #  /* c */ include \"/etc/passwd\"\n",
                           "\n#include\\\n </etc/passwd>\n", "\n#define F </etc/passwd>\n#include F\n",
                           "\n#include_next <cstdio>\n", "\n#pragma GCC dependency \"/etc/passwd\"\n",
                           "\n_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n", "\nint tsRec\\\norder;\n",
                           "\n#define CAT(a, b) a##b\n", "\n#ifdef __NVCC__\n#endif\n", "\n#if __GNUC__ > 3\n#endif\n",
                           "\nconst char v = __VERSION__[0];\n", "\n#ifdef __CUDA_ARCH_FEAT_SM90_ALL\n#endif\n",
                           "\n#if defined(__CUDACC_RTC__)\n#endif\n"}) {
    SCOPED_TRACE(text);
    const auto d = checkStudentSource(text, "k.cu");
    ASSERT_TRUE(d.has_value());
    EXPECT_GE(d->line, 2);
  }
  // What the book writes stays accepted.
  for (const char* text : {"#include <stdio.h>\n#include \"cuda_runtime.h\"\n#define TILE_WIDTH 16\n",
                           "#define IDX(r, c) \\\n  ((r) * Width + (c))\n", "#pragma unroll\n",
                           "// a comment ending in a backslash is fine only in a #define\n"}) {
    SCOPED_TRACE(text);
    const auto d = checkStudentSource(text, "k.cu");
    EXPECT_FALSE(d.has_value()) << d->line << ": " << d->message;
  }
}

// Compiled, then refused: the object imports what no device library has.
TEST(LabForgery, HostFunctionsAreRefusedAtTheLineThatCallsThem) {
  auto exercise = findExercise(std::string(TILESCOPE_EXERCISES) + "/corner_turning.exercise");
  ASSERT_TRUE(exercise.ok()) << exercise.error().message;
  for (const Refusal& r : {Refusal{"import_fstat.cu", 9, "fstat is a host (libc) function"},
                           Refusal{"import_stat.cu", 7, "stat is a host (libc) function"},
                           Refusal{"import_getenv.cu", 6, "getenv is a host (libc) function"}}) {
    SCOPED_TRACE(r.file);
    auto g = gradeExercise(*exercise, hostile(r.file), r.file);
    ASSERT_TRUE(g.ok()) << g.error().message;
    EXPECT_FALSE(g->passed);
    ASSERT_TRUE(g->measured.has_value());
    EXPECT_EQ(g->measured->verdict, LabVerdict::CompileError);
    ASSERT_FALSE(g->measured->diagnostics.empty());
    EXPECT_EQ(g->measured->diagnostics.front().line, r.line);
    EXPECT_NE(g->measured->diagnostics.front().message.find(r.words), std::string::npos)
        << g->measured->diagnostics.front().message;
    EXPECT_NE(g->measured->diagnostics.front().message.find("NVRTC would refuse it"), std::string::npos);
  }
}

TEST(LabForgery, TheImportListTakesTheDeviceLibraryAndNothingElse) {
  for (const char* ok : {"sqrtf", "expf", "fmaxf", "__expf_finite", "printf", "puts", "memcpy", "__stack_chk_fail",
                         "_ZN9tilescope3emu11syncThreadsEi"})
    EXPECT_TRUE(allowedImport(ok)) << ok;
  for (const char* no : {"fstat", "pread", "fopen", "getenv", "system", "open", "syscall", "stat", "dlopen", "mmap",
                         "_Z5fstatiPv", "sqrtfx"})
    EXPECT_FALSE(allowedImport(no)) << no;
}

// Every forgery, graded on an exercise: none passes, whatever the check that stops it. The
// view-copy file passes the source check; its copy of a view holds no address (kernels/trace/views.h,
// Hidden), so it crashes or computes nothing.
TEST(LabForgery, NoForgeryPassesAnExercise) {
  auto exercise = findExercise(std::string(TILESCOPE_EXERCISES) + "/corner_turning.exercise");
  ASSERT_TRUE(exercise.ok()) << exercise.error().message;
  for (const char* file : {"forge_raw_pointer.cu", "forge_memcpy.cu", "forge_view_copy.cu", "forge_sink_rewrite.cu",
                           "forge_cuda_arch.cu", "import_fstat.cu", "import_stat.cu", "import_getenv.cu",
                           "include_comment.cu", "include_digraph.cu", "include_continuation.cu", "include_probe.cu"}) {
    SCOPED_TRACE(file);
    auto g = gradeExercise(*exercise, hostile(file), file);
    if (!g.ok()) continue;  // refused outright: no grade at all
    EXPECT_FALSE(g->passed);
    ASSERT_TRUE(g->measured.has_value());
    EXPECT_NE(g->measured->verdict, LabVerdict::Verified) << g->measured->summary;
  }
}

}  // namespace
}  // namespace tilescope::lab
