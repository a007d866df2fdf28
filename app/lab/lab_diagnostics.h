// A compiler's messages about a student's kernel, at the student's file and line, in the
// student's words. The lab compiles the kernel inside a generated translation unit, against
// its own headers (the views, the emulator's CUDA surface) from its cache folder; g++ or
// NVRTC then report some mistakes inside those headers ("traced_surface.h:49: invalid use of
// void expression" for a missing ';' before __syncthreads()) and name the lab's types
// (tilescope::GlobalView<float> for `float* M`). Here every message is followed back to the
// student's line (g++'s "in expansion of macro" / "required from" notes, clang's "requested
// here", NVRTC's "at line N of FILE") and its internal names become the ones the student
// wrote; a message nothing maps still names the student's file and the construct.
//
// Read by a hand-written line scanner: linear in the output's length whatever it holds
// (a 40,000-character #error line, a file name made to look like a message), and every number
// is range-checked (a line past kMaxSourceLine is no line, never an abort).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lab.h"

namespace tilescope::lab {

// The file's name as the generated units write it (`#line 1 "NAME"`, a comment): a quote, a
// backslash or a control character (a newline) would end the string or the comment and put
// the rest of the name into the code, so each becomes '_'. parseDiagnostics (below) maps it back.
std::string unitFileName(std::string_view fileName);

// The largest line or column number read from a compiler's output.
inline constexpr int kMaxSourceLine = 1 << 24;
// A message longer than this is cut (an #error line can be any length).
inline constexpr std::size_t kMaxMessageChars = 400;

// `digits` as a number in 1..kMaxSourceLine; nullopt for anything else (empty, not all
// digits, zero, out of range).
std::optional<int> parseSourceNumber(std::string_view digits);

// One line of compiler output, split at its location: `FILE:LINE:COL: REST` or
// `FILE:LINE: REST` (g++, clang) or `FILE(LINE): REST` (NVRTC). The file is the text before
// the first location that parses; a LINE out of range leaves line 0.
struct LocatedLine {
  std::string_view file;
  int line = 0, column = 0;
  std::string_view rest;  // after ": "
};
std::optional<LocatedLine> locateLine(std::string_view text);

// The compiler's errors in `output`, each once, every one at `fileName` (the student's file):
// at the line the compiler names there, or reached through its notes; line 0 where nothing
// leads to a line of the student's (explainDiagnostics then picks one from the source).
std::vector<LabDiagnostic> parseDiagnostics(std::string_view output, std::string_view fileName);

// `message` with the lab's internal names in the student's words: the views' types as the
// declarations the student wrote (`float*`, `__shared__ float[][]`), the emulator's thread
// context as `threadIdx.z`, no namespace of the lab's, no path into its cache.
std::string plainMessage(std::string_view message);

// With the student's source: an error at a __syncthreads() that begins a line, after a
// statement left without its ';', moves to the end of that statement; a misspelt CUDA
// built-in gets "did you mean"; line 0 becomes the kernel's first line.
void explainDiagnostics(std::vector<LabDiagnostic>& diagnostics, std::string_view source);

// Why a result may be wrong, when the run shows it ("; every value stored to P is a whole
// number ... (stored at line 28): an int accumulator ..."), else empty.
std::string wrongResultHint(const Run& run);
// The student's lines a wrong result is traced back to (the read of the first wrong operand,
// and the load that filled its slot): the editor's gutter marks them. Empty when not traced.
std::vector<int> wrongResultLines(const Run& run);

}  // namespace tilescope::lab
