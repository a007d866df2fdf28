#include "cli_options.h"

#include "core/edit_distance.h"
#include "core/run/run_description.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <vector>

namespace tilescope::cli {

const char* const kUsage = R"(usage: tilescope-cli COMMAND [flags]

commands:
  kernels            list the kernels with a one-line description
  run                run a kernel, verify it against the double-precision reference
  trace              run the instrumented kernel and write its trace as JSON
  demo               trace the book's 4x4 example (figs. 5.7-5.8) and print it phase by phase
  analyze            trace a launch and report coalescing, bank conflicts, hazards, traffic,
                     intensity and occupancy; its flags: --profile textbook|a100|h100|device|auto
                     (default auto: the GPU's own when the run is on CUDA, else h100),
                     --registers R (registers per thread; default: cudaFuncGetAttributes on
                     a GPU, else an estimate)
  bench              time the plain kernels on the GPU next to cuBLAS (each verified first);
                     --preset lecture|live|targets|ladder, --kernels a,b --sizes N1,N2 --tiles T1,T2
                     --blocks 64x16,32x32 --repeats R --warmup W --no-cublas, --csv or --json
  bugs               the bug gallery; --show ID runs a bug and prints its symptom, --fixed
                     runs its fixed kernel instead (exit 0 when it behaves as described)
  save               trace a launch and save it: --file F.tstrace [--chrome F.json]
  open               summarise a saved trace: --file F.tstrace [--chrome F.json for Perfetto]
  lab run FILE.cu    compile a kernel of your own and run it on the emulator: verified, wrong
                     result, out-of-bounds, hazard (exit 1), compile error at FILE:LINE (2),
                     crashed, timed out or deadlocked (3); --size W | --dims J,K,L,
                     --define NAME=VALUE, --arg NAME=VALUE, --block BXxBY, --grid GXxGY,
                     --shared-bytes N, --timeout S, --trace-out F.json, --backend emu|cuda|auto
  lab time FILE.cu   time a kernel of your own on the GPU as written, verified first, next to
                     cuBLAS (% of cuBLAS); --sizes N1,N2 (default 256..4096) or --size/--dims,
                     --repeats R, --warmup W, --no-cublas, --csv F, --json, and run's launch flags
  lab check EXERCISE FILE.cu   grade a kernel against an exercise (assets/exercises); exit 0
                     when it passes, 1 when it does not (a failed check or a compile error);
                     inputs from a fresh seed each time, printed (--seed N grades with N again);
                     'lab exercises' lists them, 'lab exercises --show NAME' prints one's goal
                     and starter kernel
  lab grade EXERCISE DIR   grade every .cu in DIR (a class) in the sandbox: --csv F, --json F,
                     --gradescope F, --classroom F, -j N, --timeout S, --seed N, --backend emu|cuda;
                     exit 0 when every file was graded, 1 when some file could not be
  lessons            list the guided lessons; --show NAME prints one, --script NAME writes it
                     as an app script (tilescope --script); --dir DIR reads another directory

flags:
  --kernel NAME      naive | tiled | tiled-bounds | tiled-dynamic | ... (see 'kernels')
  --size W           square matrices W x W                               (default 4)
  --dims J,K,L       M is J x K, N is K x L, P is J x L
  --tile T           tile width of the tiled kernels, 1..32              (default 2)
  --block BXxBY      block shape of naive and tiled-rect, e.g. 32x8 (at most 1024 threads) (default 16x16)
  --tiling B/T       the ladder's kernels: block tile BMxBNxBK, [warp tile WMxWN,] thread tile TMxTN
                     e.g. 64x64x8/8x1 (default: the kernel's first built tiling that fits P)
  --pad P            tiled-transposed: shared tile rows of T + P floats, 0..32 (default 0)
  --grid-blocks G    a kernel with a persistent grid: G blocks sharing the k iterations (0: one
                     block per tile); with neither this nor --tiling its facts pick both
  --seed S           seed of the random inputs                           (default 1)
  --backend B        emu | cuda | auto (CUDA when a device is present)    (default auto)
  --json             machine-readable output
  --out FILE         write the output to FILE instead of standard output
  --help             this text

exit codes: 0 success, 1 verification failed, 2 bad input or backend unavailable, 3 runtime error
)";

Result<int> parseInt(const std::string& flag, const std::string& text, int min, int max) {
  long long v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
    return invalidInput(flag + " expects a whole number, got '" + text + "'");
  if (v < min || v > max)
    return invalidInput(flag + " " + text + " is out of range: it must be " + std::to_string(min) + " to " +
                        std::to_string(max));
  return int(v);
}

Result<double> parseSeconds(const std::string& flag, const std::string& text, double max) {
  char* end = nullptr;
  const double s = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(s > 0.0) || s > max) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", max);
    return invalidInput(flag + " expects seconds, more than 0 and at most " + limit + ", got '" + text + "'");
  }
  return s;
}

Result<std::vector<int>> parseIntList(const std::string& flag, const std::string& text, char sep, int min,
                                      int max) {
  std::vector<int> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = text.find(sep, start);
    auto v = parseInt(flag, text.substr(start, end - start), min, max);
    if (!v) return v.error();
    out.push_back(*v);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

namespace {
std::string ladderKernelNames() {
  std::string names;
  for (const auto& k : kKernels)
    if (!kernelTilings(k.id).empty()) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names.empty() ? "none is built" : names;
}

// A flag that takes a value (`--kernel tiled`): a setting of the run is read by the one reader
// of a run's description (core/run/run_description.h), the flag in front of its words; the
// others are the CLI's own. Stored in `o`.
Status applyValueFlag(Options& o, const std::string& flag, const std::string& s, bool& dimsGiven) {
  const std::string setting = flag.substr(2);
  if (isRunSetting(setting)) {
    const Tiling asked = o.config.tiling;  // flags in any order: --tiling before --kernel stays asked
    if (Status read = readRunSetting(o.config, setting, {s}); !read) return invalidInput(flag + " " + read.error().message);
    if (setting == "kernel" && o.tilingGiven) o.config.tiling = asked;
    o.kernelGiven |= setting == "kernel";
    o.sizeGiven |= setting == "size";
    dimsGiven |= setting == "dims";
    o.tileGiven |= setting == "tile";
    o.blockGiven |= setting == "block";
    o.padGiven |= setting == "pad";
    o.gridBlocksGiven |= setting == "grid-blocks";
    o.tilingGiven |= setting == "tiling";
    o.seedGiven |= setting == "seed";
  } else if (flag == "--backend") {
    if (s == "emu" || s == "emulator") o.backend = BackendChoice::Emulator;
    else if (s == "cuda") o.backend = BackendChoice::Cuda;
    else if (s == "auto") o.backend = BackendChoice::Auto;
    else return invalidInput("--backend expects emu, cuda or auto, got '" + s + "'");
  } else {
    o.out = s;
  }
  return Ok{};
}

// Every flag some command takes: those --help lists (read from its text, so a flag added there
// is known here) and the few it leaves out (the lab's sandbox and limits, analyze's plain run,
// the autograder's exercise, --version).
std::vector<std::string> knownFlags() {
  std::vector<std::string> flags = {"--plain-run", "--no-sandbox", "--compile-timeout", "--memory-limit", "--exercise",
                                    "--version", "-j"};
  const std::string_view usage = kUsage;
  for (std::size_t at = usage.find("--"); at != std::string_view::npos; at = usage.find("--", at + 2)) {
    std::size_t end = at + 2;
    while (end < usage.size() && (std::isalnum(static_cast<unsigned char>(usage[end])) || usage[end] == '-')) ++end;
    if (end > at + 2) flags.emplace_back(usage.substr(at, end - at));
  }
  return flags;
}

// A flag no command takes, refused with the nearest known one when it is a likely misspelling
// ("--sise": did you mean --size?), else with where the flags are listed.
Status unknownFlag(const std::string& flag) {
  std::string nearest;
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (const std::string& known : knownFlags())
    if (const std::size_t d = editDistance(flag, known); d < best) best = d, nearest = known;
  // Two edits at most, and fewer than half the name: "--out" is no misspelling of "--dir".
  if (best <= 2 && best * 2 < flag.size() - 2) return invalidInput("unknown flag '" + flag + "': did you mean " + nearest + "?");
  return invalidInput("unknown flag '" + flag + "' (tilescope-cli --help lists them)");
}

bool isKnownFlag(const std::string& flag) {
  const std::vector<std::string> flags = knownFlags();
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

}  // namespace

Result<Options> parseOptions(const std::vector<std::string>& args) {
  Options o;
  bool dimsGiven = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto next = [&]() -> Result<std::string> {
      if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0) return invalidInput(a + " needs a value");
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--kernel" || a == "--size" || a == "--dims" || a == "--tile" || a == "--block" ||
               a == "--seed" || a == "--backend" || a == "--out" || a == "--pad" || a == "--tiling" ||
               a == "--grid-blocks") {
      auto v = next();
      if (!v) return v.error();
      if (Status applied = applyValueFlag(o, a, *v, dimsGiven); !applied) return applied.error();
    } else if (a.rfind("--", 0) == 0 || a == "-j") {  // -j N: lab grade's parallel runs
      if (!isKnownFlag(a)) return unknownFlag(a).error();
      // Command-specific flags (bench, analyze) travel on with their value, if any.
      o.extra.push_back(a);
      if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) o.extra.push_back(args[++i]);
    } else if (o.command.empty()) {
      o.command = a;
    } else if (o.command == "lab") {
      o.operands.push_back(a);
    } else {
      return invalidInput("unexpected argument '" + a + "' (commands take flags only)");
    }
  }
  if (o.sizeGiven && dimsGiven) return invalidInput("give either --size or --dims, not both");
  o.sizeGiven = o.sizeGiven || dimsGiven;
  const bool tiled = kernelInfo(o.config.kernel).tiled;
  if (o.command == "lab") return o;  // the lab's kernel is a file: its block is any shape
  const bool ladder = !kernelTilings(o.config.kernel).empty();
  if (o.tilingGiven && !ladder)
    return invalidInput("--tiling applies to the ladder's register-tiled kernels only (" + ladderKernelNames() + ")");
  if (ladder && (o.tileGiven || o.blockGiven))
    return invalidInput(std::string(kernelInfo(o.config.kernel).name) +
                        " takes --tiling BMxBNxBK/TMxTN (or with /WMxWN), not --tile or --block");
  if (o.blockGiven && tiled)
    return invalidInput("--block applies to naive only: the tiled kernels use T x T blocks (set --tile)");
  if (o.tileGiven && !tiled) return invalidInput("--tile applies to the tiled kernels only: naive takes --block");
  if (o.padGiven && !kernelInfo(o.config.kernel).takesPad)
    return invalidInput("--pad applies to tiled-transposed only (the row stride of its shared tiles is T + pad)");
  if (o.gridBlocksGiven && !kernelInfo(o.config.kernel).persistentGrid) {
    std::string names;
    for (const auto& k : kKernels)
      if (k.persistentGrid) names += (names.empty() ? "" : ", ") + std::string(k.name);
    return invalidInput("--grid-blocks applies only to a kernel with a persistent grid (" + names + ")");
  }
  return o;
}

}  // namespace tilescope::cli
