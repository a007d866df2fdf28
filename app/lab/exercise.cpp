#include "exercise.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/files/output_file.h"
#include "core/analysis/bank_conflicts.h"
#include "core/trace/memory_layout.h"
#include "core/analysis/coalescing.h"
#include "core/analysis/warp_requests.h"
#include "core/asset_paths.h"

namespace tilescope::lab {

const std::vector<std::string> kMetricNames = {"global-loads-per-multiply-add", "load-efficiency", "bank-conflicts",
                                               "barriers-per-thread", "static-shared-bytes"};

namespace {
// The coalescing of the kernel's least coalesced load: each source line's global loads together
// (a kernel's overall figure would let many extra coalesced loads hide one that is not), and a
// request repeated with the same addresses counted once (loading the same row forty times is
// no better coalescing).
double worstLoadLineEfficiency(const Trace& t) {
  std::map<int, std::set<std::vector<uint64_t>>> lines;  // line -> distinct requests' lane addresses
  for (const WarpRequest& r : groupAllWarpRequests(t).global) {
    if (r.write || (r.op != Op::LoadM && r.op != Op::LoadN)) continue;
    std::vector<uint64_t> addresses;
    for (const RequestLane& lane : r.lanes) addresses.push_back(uint64_t(lane.address) << 8 | lane.bytes);
    lines[r.line].insert(std::move(addresses));
  }
  double worst = lines.empty() ? 0.0 : 1.0;
  for (const auto& [line, requests] : lines) {
    CoalescingTotals totals;
    for (const std::vector<uint64_t>& addresses : requests) {
      WarpRequest r;
      r.op = Op::LoadM;
      for (std::size_t i = 0; i < addresses.size(); ++i)
        r.lanes.push_back(RequestLane{uint8_t(i), 0, addresses[i] >> 8, addresses[i] & 0xff});
      totals.add(measureGlobalRequest(std::move(r)));
    }
    worst = std::min(worst, totals.efficiency());
  }
  return worst;
}
}  // namespace

Result<double> measureMetric(std::string_view metric, const LabOutcome& o) {
  if (metric == "static-shared-bytes") return double(o.staticSharedBytes);
  if (!o.finished || !o.finished->run.trace)
    return failure("no trace to measure " + std::string(metric) + " on (" + o.summary + ")");
  const Trace& t = *o.finished->run.trace;
  const KernelLaunch& L = t.launch;
  if (metric == "global-loads-per-multiply-add") {
    uint64_t loads = 0;
    for (const Event& e : t.events) loads += (e.op == Op::LoadM || e.op == Op::LoadN) && !zeroFilled(e);
    return double(loads) / (double(L.j) * L.k * L.l);
  }
  if (metric == "load-efficiency") return worstLoadLineEfficiency(t);
  if (metric == "bank-conflicts") {
    // A shared access the analysis cannot place in a bank (through a pointer into a shared
    // array, say) would count as no conflict at all: the measure fails instead of passing.
    const SharedLayout layout = sharedLayout(L);
    uint64_t unplaced = 0;
    for (const Event& e : t.events) unplaced += (readsShared(e) || writesShared(e)) && !sharedAddress(e, layout);
    if (unplaced > 0)
      return failure(std::to_string(unplaced) + " shared accesses could not be placed in banks (a pointer into a "
                     "__shared__ array hides which bank it reads): index the __shared__ arrays themselves");
    return double(analyzeBankConflicts(t).loads.conflicts());
  }
  if (metric == "barriers-per-thread") {
    uint64_t barriers = 0;
    for (const Event& e : t.events) barriers += e.op == Op::Barrier;
    return double(barriers) / double(uint64_t(L.gridX) * L.gridY * L.blockX * L.blockY);
  }
  return invalidInput("unknown metric '" + std::string(metric) + "'");
}

namespace {
std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t\r"));
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}
}  // namespace

namespace {
// The value of one `key: value` line of an exercise file into `x`; the reason when it is not
// one (the caller adds the file and line).
using KeyResult = std::optional<std::string>;

KeyResult parseDefineOrArg(Exercise& x, const std::string& key, const std::string& value) {
  const auto eq = value.find('=');
  if (eq == std::string::npos || eq == 0) return key + " needs NAME=VALUE";
  const std::string name = trim(value.substr(0, eq)), v = trim(value.substr(eq + 1));
  if (key == "define") {
    x.defines.push_back({name, v});
    return std::nullopt;
  }
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || *end) return "arg " + name + ": '" + v + "' is not a number";
  x.args.push_back({name, d});
  return std::nullopt;
}

KeyResult parseWholeNumber(Exercise& x, const std::string& key, const std::string& value) {
  int v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < (key == "shared-bytes" ? 0 : 1))
    return key + " needs a whole number" + (key == "shared-bytes" ? "" : " of at least 1");
  if (key == "shared-bytes") x.sharedBytes = unsigned(v);
  else x.gridCoarsenX = v;
  return std::nullopt;
}

KeyResult parseSizes(Exercise& x, const std::string& value) {
  std::istringstream sizes(value);
  std::string s;
  while (sizes >> s) {
    int d[3];
    char c1 = 0, c2 = 0;
    std::istringstream one(s);
    if (!(one >> d[0] >> c1 >> d[1] >> c2 >> d[2]) || c1 != ',' || c2 != ',' || d[0] < 1 || d[1] < 1 || d[2] < 1)
      return "sizes are J,K,L triples separated by spaces, e.g. 8,8,8 5,7,3; got '" + s + "'";
    x.sizes.push_back({d[0], d[1], d[2]});
  }
  return std::nullopt;
}

KeyResult parseCheck(Exercise& x, const std::string& value) {
  std::istringstream words(value);
  std::string kind, metric, limit;
  words >> kind >> metric >> limit;
  ExerciseCheck c;
  if (kind == "correct" && metric.empty()) c.kind = ExerciseCheck::Kind::Correct;
  else if (kind == "no-hazards" && metric.empty()) c.kind = ExerciseCheck::Kind::NoHazards;
  else if (kind == "max" || kind == "min") {
    c.kind = kind == "max" ? ExerciseCheck::Kind::Max : ExerciseCheck::Kind::Min;
    if (std::find(kMetricNames.begin(), kMetricNames.end(), metric) == kMetricNames.end()) {
      std::string names;
      for (const auto& m : kMetricNames) names += (names.empty() ? "" : ", ") + m;
      return "unknown metric '" + metric + "' (" + names + ")";
    }
    char* end = nullptr;
    c.limit = std::strtod(limit.c_str(), &end);
    if (limit.empty() || *end) return "check " + kind + " " + metric + " needs a number";
    c.metric = metric;
    std::string word, rest;
    if (words >> word) {  // `at J,K,L ...`: the sizes it is measured at (else every size)
      std::getline(words, rest);
      if (word != "at" || trim(rest).empty()) return "check " + kind + " " + metric + " " + limit + " takes 'at J,K,L ...' after it, or nothing";
      Exercise sizes;
      if (KeyResult why = parseSizes(sizes, rest)) return why;
      c.at = sizes.sizes;
    }
  } else {
    return std::string("check is 'correct', 'no-hazards', or 'max|min METRIC LIMIT'");
  }
  x.checks.push_back(c);
  return std::nullopt;
}

KeyResult parseKey(Exercise& x, const std::string& key, const std::string& value) {
  if (key == "title") x.title = value;
  else if (key == "goal") x.goal += (x.goal.empty() ? "" : " ") + value;
  else if (key == "define" || key == "arg") return parseDefineOrArg(x, key, value);
  else if (key == "block") {
    auto b = parseShape(value, "block");
    if (!b) return b.error().message;
    x.block = *b;
  } else if (key == "shared-bytes" || key == "grid-coarsen-x") return parseWholeNumber(x, key, value);
  else if (key == "sizes") return parseSizes(x, value);
  else if (key == "check") return parseCheck(x, value);
  else return "unknown key '" + key + "'";
  return std::nullopt;
}
}  // namespace

Result<Exercise> parseExercise(std::string_view text, const std::string& fileName) {
  Exercise x;
  x.id = std::filesystem::path(fileName).stem().string();
  std::istringstream in{std::string(text)};
  std::string line;
  int n = 0;
  auto bad = [&](const std::string& why) { return invalidInput(fileName + ":" + std::to_string(n) + ": " + why); };
  while (std::getline(in, line)) {
    ++n;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto colon = t.find(':');
    if (colon == std::string::npos) return bad("expected 'key: value' (title, goal, define, arg, block, shared-bytes, grid-coarsen-x, sizes, check, starter)");
    const std::string key = t.substr(0, colon), value = trim(t.substr(colon + 1));
    if (key == "starter") {
      x.starterLine = n + 1;
      std::stringstream rest;
      rest << in.rdbuf();
      x.starter = rest.str();
      break;
    }
    if (KeyResult why = parseKey(x, key, value)) return bad(*why);
  }
  if (x.title.empty()) return invalidInput(fileName + ": no title: line");
  if (x.goal.empty()) return invalidInput(fileName + ": no goal: line");
  if (x.sizes.empty()) return invalidInput(fileName + ": no sizes: line");
  if (x.checks.empty()) return invalidInput(fileName + ": no check: line");
  if (trim(x.starter).empty()) return invalidInput(fileName + ": no starter: kernel at the end");
  for (const ExerciseCheck& c : x.checks)
    for (const Dims& d : c.at)
      if (std::none_of(x.sizes.begin(), x.sizes.end(), [&](const Dims& s) { return s.j == d.j && s.k == d.k && s.l == d.l; }))
        return invalidInput(fileName + ": check " + checkName(c) + ": " + sizeName(d) + " is not one of the sizes: line's");
  return x;
}

Result<std::vector<Exercise>> loadExercises(const std::filesystem::path& dir) {
  std::filesystem::path d = dir;
  if (d.empty()) {
    auto a = assetPath("exercises");
    if (!a) return a.error();
    d = *a;
  }
  std::vector<Exercise> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(d, ec)) {
    if (e.path().extension() != ".exercise") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    auto x = parseExercise(s.str(), e.path().string());
    if (!x) return x.error();
    out.push_back(std::move(*x));
  }
  if (ec) return invalidInput("cannot read " + d.string() + ": " + ec.message());
  std::sort(out.begin(), out.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
  return out;
}

Result<Exercise> findExercise(std::string_view idOrPath) {
  const std::filesystem::path p(idOrPath);
  if (p.extension() == ".exercise") {
    std::ifstream in(p, std::ios::binary);
    if (!in) return invalidInput("cannot read '" + p.string() + "'");
    std::stringstream s;
    s << in.rdbuf();
    return parseExercise(s.str(), p.string());
  }
  auto all = loadExercises();
  if (!all) return all.error();
  std::string ids;
  for (Exercise& x : *all) {
    if (x.id == idOrPath) return std::move(x);
    ids += (ids.empty() ? "" : ", ") + x.id;
  }
  return invalidInput("no exercise '" + std::string(idOrPath) + "': the exercises are " + ids);
}

std::string sizeName(const Dims& d) {
  return std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l);
}

std::string checkName(const ExerciseCheck& c) {
  using K = ExerciseCheck::Kind;
  if (c.kind == K::Correct) return "correct";
  if (c.kind == K::NoHazards) return "no hazards";
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", c.limit);
  std::string name = std::string(c.kind == K::Max ? "max " : "min ") + c.metric + " " + limit;
  for (std::size_t i = 0; i < c.at.size(); ++i) name += (i == 0 ? " at " : ", ") + sizeName(c.at[i]);
  return name;
}

namespace {
bool measuredAt(const ExerciseCheck& c, const Dims& d) {
  return c.at.empty() || std::any_of(c.at.begin(), c.at.end(), [&](const Dims& a) { return a.j == d.j && a.k == d.k && a.l == d.l; });
}

// Why a failed metric matters, in the student's words, where one sentence says it.
std::string metricHint(const std::string& metric, double worst) {
  if (metric == "global-loads-per-multiply-add" && worst >= 1.0)
    return " (each multiply-add reads M and N from global memory: the kernel does not use tiles in shared memory, "
           "which this exercise is about)";
  return "";
}

// A metric check over the sizes: each size's value, and the worst of them.
struct MetricTally {
  std::string detail, problem;  // "0.5 at 8x8x8, 0.62 at 5x7x3"; why a size could not be measured
  std::optional<double> worst;
};

void tallyMetric(const ExerciseCheck& c, const LabOutcome& o, const std::string& at, MetricTally& t) {
  auto v = measureMetric(c.metric, o);
  if (!v) {
    if (t.problem.empty()) t.problem = "at " + at + ": " + v.error().message;
    return;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.4g at ", *v);
  t.detail += (t.detail.empty() ? "" : ", ") + std::string(text) + at;
  const bool max = c.kind == ExerciseCheck::Kind::Max;
  if (!t.worst || (max ? *v > *t.worst : *v < *t.worst)) t.worst = *v;
}

}  // namespace

LabRequest exerciseRequest(const Exercise& x, const LabRequest& base, const std::string& source,
                           const std::string& fileName, const Dims& d) {
  LabRequest q = base;
  q.source = source;
  q.fileName = fileName;
  q.dims = d;
  q.defines = x.defines;
  q.args = x.args;
  q.block = x.block;
  q.grid.reset();
  q.gridCoarsenX = x.gridCoarsenX;
  q.sharedBytes = x.sharedBytes;
  return q;
}

namespace {

// Why a size that ran cannot be checked from its trace, if it cannot.
std::optional<std::string> untraced(const LabOutcome& o, const std::string& at) {
  if (o.finished && o.finished->run.outcome.traceOverflowed)
    return "the trace of " + at + " grew past its bound (a thread recorded more events than the lab traces); " +
           "this size cannot be checked";
  if (!o.finished || !o.finished->run.trace) return "the run at " + at + " left no trace (" + o.summary + "); this size cannot be checked";
  return std::nullopt;
}
}  // namespace

Result<Grade> gradeExercise(const Exercise& x, const std::string& source, const std::string& fileName,
                            const LabRequest& base) {
  Grade g;
  g.passed = true;
  g.seed = base.seed;
  auto add = [&](std::string check, bool passed, std::string detail) {
    g.items.push_back({std::move(check), passed, std::move(detail), std::nullopt});
    g.passed = g.passed && passed;
  };
  const auto wants = [&](ExerciseCheck::Kind k) { return std::any_of(x.checks.begin(), x.checks.end(), [&](auto& c) { return c.kind == k; }); };
  std::size_t hazards = 0;  // hazard groups, every size's
  std::string hazardWhere, unchecked, raceStopped;
  std::vector<MetricTally> metrics(x.checks.size());
  for (std::size_t i = 0; i < x.sizes.size(); ++i) {
    auto o = runLabInterpreted(exerciseRequest(x, base, source, fileName, x.sizes[i]));
    if (!o) return o.error();
    const std::string at = sizeName(x.sizes[i]);
    if (o->verdict == LabVerdict::CompileError) {
      add("compiles", false, o->summary);
      g.measured = std::move(*o);
      return g;
    }
    if (o->unaccounted) {  // a trace that does not account for P grades nothing
      add("the trace accounts for P at " + at, false, *o->unaccounted);
      g.measured = std::move(*o);
      return g;
    }
    // A size without a trace is not graded as passing: neither its accounting nor its race
    // check could run (a thread that records past the bound turned both off).
    const std::optional<std::string> blind = untraced(*o, at);
    if (blind && o->finished) add("the trace accounts for P at " + at, false, *blind);
    if (blind && unchecked.empty()) unchecked = *blind;
    if (wants(ExerciseCheck::Kind::Correct)) {
      const bool right = !blind && o->finished && o->finished->run.verification.passed && o->boundsViolations().empty() &&
                         o->outsideAllocation.empty() && o->verdict != LabVerdict::Deadlocked;
      add("correct at " + at, right, right ? o->finished->run.verification.summary() : blind && o->finished ? *blind : o->summary);
    }
    hazards += o->hazards().size();
    if (o->finished && o->finished->hazards && o->finished->hazards->capped && raceStopped.empty()) raceStopped = at;
    if (!o->hazards().empty() && hazardWhere.empty()) hazardWhere = "at " + at + ", " + o->hazardSentence;
    for (std::size_t c = 0; c < x.checks.size(); ++c)
      if ((x.checks[c].kind == ExerciseCheck::Kind::Max || x.checks[c].kind == ExerciseCheck::Kind::Min) &&
          measuredAt(x.checks[c], x.sizes[i]))
        tallyMetric(x.checks[c], *o, at, metrics[c]);
    if (i == 0) g.measured = std::move(*o);
  }
  if (wants(ExerciseCheck::Kind::NoHazards)) {
    if (hazards > 0) add("no hazards", false, hazardWhere);  // the race, once: the same pair in every block is one
    else if (!unchecked.empty()) add("no hazards", false, "the race check could not run: " + unchecked);
    else if (!raceStopped.empty())  // what it did not reach may race: a budget spent is no pass
      add("no hazards", false, std::string(kRaceCheckStopped) + " at " + raceStopped + " (its limit is " +
                                   std::to_string(kMaxHazardWork) + " steps): the rest of the trace was not checked");
    else add("no hazards", true, "the race detector found none");
  }
  for (std::size_t c = 0; c < x.checks.size(); ++c) {
    const ExerciseCheck& k = x.checks[c];
    if (k.kind != ExerciseCheck::Kind::Max && k.kind != ExerciseCheck::Kind::Min) continue;
    const MetricTally& t = metrics[c];
    if (!t.problem.empty() || !t.worst) {
      add(checkName(k), false, t.problem.empty() ? "measured at no size (the exercise names none it grades)" : t.problem);
      continue;
    }
    const bool max = k.kind == ExerciseCheck::Kind::Max;
    const bool ok = max ? *t.worst <= k.limit + 1e-9 : *t.worst >= k.limit - 1e-9;
    add(checkName(k), ok, "measured " + t.detail + (ok ? "" : metricHint(k.metric, *t.worst)));
    g.items.back().value = *t.worst;
  }
  return g;
}

std::filesystem::path progressFile() {
  if (const char* s = std::getenv("XDG_STATE_HOME"); s && *s) return std::filesystem::path(s) / "tilescope" / "lab-progress";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".local" / "state" / "tilescope" / "lab-progress";
  return std::filesystem::temp_directory_path() / "tilescope-lab-progress";
}

std::map<std::string, bool> loadProgress(const std::filesystem::path& file) {
  std::map<std::string, bool> passed;
  std::ifstream in(file);
  std::string id, state;
  while (in >> id >> state) passed[id] = state == "passed";
  return passed;
}

Status saveProgress(const std::map<std::string, bool>& passed, const std::filesystem::path& file) {
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  const std::string staging = stagingPathFor(file.string());  // core/files/output_file.h
  {
    std::ofstream out(staging);
    for (const auto& [id, ok] : passed) out << id << " " << (ok ? "passed" : "tried") << "\n";
    if (!out) {
      discardStaging(staging, file.string());
      return failure("cannot write " + file.string());
    }
  }
  return moveIntoPlace(staging, file.string());
}

}  // namespace tilescope::lab
