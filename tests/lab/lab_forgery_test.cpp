// A class's forgeries do not pass (tests/fixtures/lab/hostile: every hostile file of the lab's
// reviews). The lab's own interpreter runs a student's kernel: its values, arrays and matrices
// exist only inside the interpreter, which records every access itself, so there is no host
// code, no libc, no raw address and no recorder within the kernel's reach. Each hostile file
// is either refused at its own line as outside the lab's CUDA subset, in words that say why,
// or runs contained and fails the exercise on what it really did.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <vector>

#include "lab/exercise.h"
#include "lab/lab.h"

namespace tilescope::lab {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
std::string hostile(const std::string& name) { return readFile(fs::path(TILESCOPE_LAB_HOSTILE) / name); }
Exercise exercise(const std::string& id) {
  auto x = findExercise(std::string(TILESCOPE_EXERCISES) + "/" + id + ".exercise");
  EXPECT_TRUE(x.ok()) << x.error().message;
  return x.ok() ? *x : Exercise{};
}

struct Refusal {
  const char* file;
  int line;
  const char* words;  // what the message must say
};

// Refused before anything runs, at the line that reaches for what the lab does not have.
TEST(LabForgery, EachForgeryOutsideTheSubsetIsRefusedAtItsLine) {
  const Exercise x = exercise("corner_turning");
  for (const Refusal& r : {Refusal{"forge_raw_pointer.cu", 6, "casts to pointers are outside the lab's CUDA subset"},
                           Refusal{"forge_memcpy.cu", 6, "'p' is a pointer"},
                           Refusal{"forge_sink_rewrite.cu", 5, "structs are outside the lab's CUDA subset"},
                           Refusal{"forge_view_copy.cu", 8, "'auto' is outside the lab's CUDA subset"},
                           Refusal{"forge_shared_struct.cu", 4, "structs are outside the lab's CUDA subset"},
                           Refusal{"detach_recorder.cu", 8, "only named functions can be called"},
                           Refusal{"scope_if0_unbalanced.cu", 7, "host code is outside the lab"},
                           Refusal{"files_in_home.cu", 9, "the type 'FILE' is outside the lab's CUDA subset"},
                           Refusal{"environment.cu", 9, "the type 'char' is outside the lab's CUDA subset"},
                           Refusal{"include_private.cu", 6, "the lab reads your one file"},
                           Refusal{"include_comment.cu", 3, "the lab reads your one file"},
                           Refusal{"include_continuation.cu", 3, "the lab reads your one file"}}) {
    SCOPED_TRACE(r.file);
    auto g = gradeExercise(x, hostile(r.file), r.file);
    ASSERT_TRUE(g.ok()) << g.error().message;
    EXPECT_FALSE(g->passed);
    ASSERT_TRUE(g->measured.has_value());
    EXPECT_EQ(g->measured->verdict, LabVerdict::CompileError) << g->measured->summary;
    ASSERT_FALSE(g->measured->diagnostics.empty());
    const LabDiagnostic& d = g->measured->diagnostics.front();
    EXPECT_EQ(d.file, r.file);
    EXPECT_EQ(d.line, r.line) << d.message;
    EXPECT_NE(d.message.find(r.words), std::string::npos) << d.message;
  }
}

// Host functions (fstat, stat, getenv, socket, system) cannot even be declared: the file is
// refused at its declaration, before any call of them.
TEST(LabForgery, HostFunctionsCannotBeDeclared) {
  const Exercise x = exercise("corner_turning");
  for (const char* file : {"import_fstat.cu", "import_stat.cu", "import_getenv.cu", "socket_connect.cu", "fork_exec.cu"}) {
    SCOPED_TRACE(file);
    auto g = gradeExercise(x, hostile(file), file);
    ASSERT_TRUE(g.ok()) << g.error().message;
    ASSERT_TRUE(g->measured.has_value());
    EXPECT_EQ(g->measured->verdict, LabVerdict::CompileError);
    ASSERT_FALSE(g->measured->diagnostics.empty());
    EXPECT_NE(g->measured->diagnostics.front().message.find("extern \"C\" blocks are outside the lab's CUDA subset"),
              std::string::npos)
        << g->measured->diagnostics.front().message;
  }
}

// The lab reads the student's one file: an #include of anything but a known header, however it
// is spelt (a comment inside it, a continued line, a macro for its name, include_next), is
// refused at its line before the preprocessor could open a file of the machine.
TEST(LabForgery, NoSpellingOfAnIncludeOpensAFile) {
  const std::string kernel = "__global__ void k(float* M, float* N, float* P, int j, int k, int l) { }\n";
  for (const char* text : {"\n# include </etc/passwd>\n", "\n  #  /* c */ include \"/etc/passwd\"\n",
                           "\n#include\\\n </etc/passwd>\n", "\n#define F </etc/passwd>\n#include F\n",
                           "\n#define F \"/etc/passwd\"\n#include F\n", "\n#include_next <cstdio>\n",
                           "\n#include /* stdio.h */ </etc/passwd>\n", "\n#include <stdio.h> /*\n*/ </etc/passwd>\n"}) {
    SCOPED_TRACE(text);
    LabRequest q;
    q.source = text + kernel;
    q.fileName = "k.cu";
    auto o = runLabInterpreted(q);
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_EQ(o->verdict, LabVerdict::CompileError);
    ASSERT_FALSE(o->diagnostics.empty());
    EXPECT_GE(o->diagnostics.front().line, 2);
    EXPECT_NE(o->diagnostics.front().message.find("the lab reads your one file"), std::string::npos)
        << o->diagnostics.front().message;
    EXPECT_EQ(o->summary.find("root"), std::string::npos) << o->summary;  // nothing of /etc/passwd
  }
  // What the book writes stays accepted.
  LabRequest q;
  q.source = "#include <stdio.h>\n#include \"cuda_runtime.h\"\n#define TILE_WIDTH 16\n" + kernel;
  auto o = runLabInterpreted(q);
  ASSERT_TRUE(o.ok()) << o.error().message;
  EXPECT_NE(o->verdict, LabVerdict::CompileError) << o->summary;
}

// What could reach past the interpreter's own memory is refused at its line: a __shared__ size
// that wraps the interpreter's 32-bit extents, an array larger than a block's shared memory, and
// a line made longer than the preprocessor's buffer by backslash splices.
TEST(LabForgery, SizesAndLinesPastTheInterpretersBoundsAreRefusedAtTheirLine) {
  const std::string head = "__global__ void k(float* M, float* N, float* P, int j, int k, int l) {\n";
  std::string spliced = "#define LONG 1";
  for (int i = 0; i < 3000; ++i) spliced += " \\\n+ 1";
  for (const auto& [source, line, words] : std::vector<std::tuple<std::string, int, std::string>>{
           {head + "  __shared__ float s[1ll << 62];\n  s[0] = 1;\n}\n", 2, "more than the lab takes"},
           {head + "  __shared__ float s[1000000];\n  s[0] = 1;\n}\n", 2, "bytes (48 KiB) of static shared memory"},
           {"\n" + spliced + "\n" + head + "}\n", 2, "longer than 2000 characters"}}) {
    LabRequest q;
    q.source = source;
    q.fileName = "k.cu";
    q.dims = {2, 2, 2};
    auto o = runLabInterpreted(q);
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_EQ(o->verdict, LabVerdict::CompileError) << o->summary;
    ASSERT_FALSE(o->diagnostics.empty());
    EXPECT_EQ(o->diagnostics.front().line, line) << o->diagnostics.front().message;
    EXPECT_NE(o->diagnostics.front().message.find(words), std::string::npos) << o->diagnostics.front().message;
  }
}

// A kernel that asks which compiler it is under (__CUDA_ARCH__) is run as the GPU would run it:
// the interpreter defines it as nvcc does for device code, so the branch graded is the GPU's.
TEST(LabForgery, TheBranchGradedIsTheOneTheGpuTakes) {
  auto g = gradeExercise(exercise("corner_turning"), hostile("forge_cuda_arch.cu"), "forge_cuda_arch.cu");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_FALSE(g->passed);
  ASSERT_TRUE(g->measured.has_value());
  EXPECT_EQ(g->measured->verdict, LabVerdict::WrongResult) << g->measured->summary;
  EXPECT_NE(g->measured->summary.find("stored at line 6"), std::string::npos) << g->measured->summary;
}

// Every hostile file there is, graded on two exercises: none passes, and each is either refused
// at a line of its own file (never an internal path) or ran and failed on what it did.
TEST(LabForgery, NoHostileFilePassesAnyExercise) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(TILESCOPE_LAB_HOSTILE)) {
    const std::string file = entry.path().filename().string();
    SCOPED_TRACE(file);
    ++files;
    for (const char* id : {"corner_turning", "bounds_jkl"}) {
      LabRequest base;
      base.timeoutSeconds = 2.0;  // the storms and loops are stopped, not waited for
      auto g = gradeExercise(exercise(id), readFile(entry.path()), file, base);
      if (!g.ok()) {  // refused outright (a launch the lab will not make): no grade at all
        EXPECT_EQ(g.error().message.find("/app/"), std::string::npos) << g.error().message;
        continue;
      }
      EXPECT_FALSE(g->passed) << id;
      ASSERT_TRUE(g->measured.has_value());
      if (g->measured->verdict == LabVerdict::CompileError) {
        ASSERT_FALSE(g->measured->diagnostics.empty());
        EXPECT_EQ(g->measured->diagnostics.front().file, file);
        EXPECT_GE(g->measured->diagnostics.front().line, 1);
        EXPECT_EQ(g->measured->summary.find("/app/"), std::string::npos) << g->measured->summary;
      }
    }
  }
  EXPECT_GE(files, 35);
}

}  // namespace
}  // namespace tilescope::lab
