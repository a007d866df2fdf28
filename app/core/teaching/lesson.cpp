#include "core/teaching/lesson.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/analysis/analysis.h"
#include "core/asset_paths.h"
#include "core/run/run_description.h"
#include "core/teaching/bugs.h"

namespace tilescope {

namespace {

std::vector<std::string> splitWords(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

bool toInt(const std::string& s, long long& v) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

bool toNumber(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

std::string restOf(const std::string& line, const std::string& command) {
  std::size_t at = line.find(command) + command.size();
  while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  std::string rest = line.substr(std::min(at, line.size()));
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t' || rest.back() == '\r')) rest.pop_back();
  return rest;
}

std::string lessonName(const std::string& file) {
  std::string stem = std::filesystem::path(file).stem().string();
  std::size_t digits = 0;
  while (digits < stem.size() && std::isdigit(static_cast<unsigned char>(stem[digits]))) ++digits;
  if (digits > 0 && digits < stem.size() && stem[digits] == '-') stem = stem.substr(digits + 1);
  return stem;
}

// A `bug ID [fixed]` line onto the page's launch; returns the problem or "".
std::string applyBug(const std::vector<std::string>& w, LaunchConfig& config) {
  const Bug* bug = w.size() >= 2 ? findBug(w[1]) : nullptr;
  if (!bug || w.size() > 3 || (w.size() == 3 && w[2] != "fixed"))
    return w.size() >= 2 && !bug ? "unknown bug '" + w[1] + "' (see tilescope-cli bugs)" : "usage: bug ID [fixed]";
  auto bc = bugConfig(*bug, w.size() == 3, config.seed);
  if (!bc) return bc.error().message;
  config = *bc;
  return "";
}

std::string paddedKernels() {
  std::string names;
  for (const auto& k : kKernels)
    if (k.takesPad) names += (names.empty() ? "" : ", ") + std::string(k.name);
  return names;
}

// Applies a `set` to the page's launch (or, `set profile`, to the page's analysis profile);
// returns the problem or "".
std::string applySet(const std::vector<std::string>& w, LaunchConfig& c, std::string& profile) {
  const std::size_t n = w.size();
  if (n < 3) return "usage: set WHAT VALUE";
  const std::string& what = w[1];
  if (isRunSetting(what)) {  // the run's own settings: the one reader of a run's description
    if (Status read = readRunSetting(c, what, {w.begin() + 2, w.end()}); !read)
      return "set " + what + " " + read.error().message;
    if (what == "pad" && !kernelInfo(c.kernel).takesPad)
      return "set pad: only a kernel with a padded tile takes one (" + paddedKernels() + ")";
  } else if (what == "granularity") {
    if (n != 3 || (w[2] != "phase" && w[2] != "interval" && w[2] != "k")) return "usage: set granularity phase|interval|k";
  } else if (what == "profile") {  // built-in only: a page looks the same on every machine
    if (n != 3 || !profileByName(w[2])) return "set profile takes a built-in profile (" + profileNames() + ")";
    profile = w[2];
  } else if (what == "speed") {
    double d = 0;
    if (n != 3 || !toNumber(w[2], d) || d <= 0) return "set speed takes a positive number (steps per second)";
  } else {
    return "'set " + what + "' is not available in a lesson (" + runSettingNames() + ", granularity, speed, profile)";
  }
  return "";
}

// Checks a view command's shape against the page's launch; returns the problem or "".
std::string checkView(const std::vector<std::string>& w, const LaunchPlan& plan) {
  const std::size_t n = w.size();
  const std::string& c = w[0];
  long long a = 0, b = 0;
  if (c == "select") {
    if (n != 4 || w[1] != "block" || !toInt(w[2], a) || !toInt(w[3], b)) return "usage: select block BX BY";
    if (a < 0 || b < 0 || a >= plan.launch.gridX || b >= plan.launch.gridY)
      return "block (" + w[2] + "," + w[3] + ") is outside the " + std::to_string(plan.launch.gridX) + "x" +
             std::to_string(plan.launch.gridY) + " grid of this page";
    return "";
  }
  if (c == "seek") {
    if (n == 2 && (w[1] == "start" || w[1] == "end")) return "";
    if (n != 3 || w[1] != "phase" || !toInt(w[2], a)) return "usage: seek phase P | seek start | seek end";
    if (a < 0 || a >= std::max(plan.phases, 1))
      return "phase " + w[2] + " does not exist: this page's launch has " + std::to_string(plan.phases) + " phase" +
             (plan.phases == 1 ? "" : "s");
    return "";
  }
  if (c == "step") return n == 2 && toInt(w[1], a) ? "" : "usage: step N";
  if (c == "play" || c == "frames") return n == 2 && toInt(w[1], a) && a >= 0 ? "" : "usage: " + c + " FRAMES";
  if (c == "show") return n >= 2 ? "" : "usage: show PANEL";
  if (c == "timing")  // the Timing panel's page (the ladder's overview shows its ladder page)
    return n == 3 && w[1] == "page" && (w[2] == "plot" || w[2] == "table" || w[2] == "ladder")
               ? ""
               : "usage: timing page plot|table|ladder";
  if (c == "follow") {
    if (n == 2 && w[1] == "off") return "";
    if (n != 4 || w[1] != "thread" || !toInt(w[2], a) || !toInt(w[3], b)) return "usage: follow thread TX TY | follow off";
    if (a < 0 || b < 0 || (plan.launch.blockX > 0 && (a >= plan.launch.blockX || b >= plan.launch.blockY)))
      return "thread (" + w[2] + "," + w[3] + ") is outside the " + std::to_string(plan.launch.blockX) + "x" +
             std::to_string(plan.launch.blockY) + " block of this page";
    return "";
  }
  return "unknown command '" + c + "'";
}

constexpr LessonFigure kFigures[] = {
    {"j", "rows of M and P"}, {"k", "columns of M, rows of N"}, {"l", "columns of N and P"},
    {"tile", "the tile width T"}, {"blockX", "threads per block across"}, {"blockY", "threads per block down"},
    {"threads", "threads per block"},
    {"mads", "multiply-adds of the whole run"}, {"flops", "floating-point operations (2 per multiply-add)"},
    {"loadBytes", "bytes loaded from global memory (4 per float)"}, {"storeBytes", "bytes stored to global memory"},
    {"intensity", "FLOPs per byte loaded (OP/B)"},
    {"dramBytes", "bytes a cache that keeps every element would fetch from DRAM: each of M and N once"},
    {"cacheReuse", "loadBytes / dramBytes: how often the caches serve each DRAM byte again"},
    {"dramIntensity", "FLOPs per DRAM byte under that model (OP/B)"},
    {"loads.requests", "global load requests (one per warp per load)"}, {"loads.sectors", "32-byte sectors loaded"},
    {"loads.efficiency", "bytes used per byte of the sectors loaded, %"},
    {"stores.sectorsPerRequest", "sectors per store request"}, {"stores.efficiency", "store efficiency, %"},
    {"banks.requests", "shared load requests"}, {"banks.wavefronts", "wavefronts of the shared loads"},
    {"banks.conflicts", "bank conflicts of the shared loads (extra wavefronts)"},
    {"banks.storeRequests", "shared store requests"}, {"banks.storeWavefronts", "wavefronts of the shared stores"},
    {"banks.storeConflicts", "bank conflicts of the shared stores"},
    {"banks.worst", "the most wavefronts any one shared request takes"},
    {"banks.readsPerMad", "shared words read per multiply-add"},
    {"roofline.gflops", "attainable GFLOP/s at this intensity on the device profile"},
    {"roofline.ridge", "the device's ridge point, OP/B"}, {"roofline.bandwidth", "the device's DRAM bandwidth, GB/s"},
    {"roofline.peak", "the device's FP32 peak, GFLOP/s"},
    {"occupancy.percent", "resident warps / warp slots, %"}, {"occupancy.blocksPerSm", "resident blocks per SM"},
};

// Whether text[open..close] is a figure's place, {name} or {part.name}; other braces (the book's
// thread_{0,1}) are the text's own.
bool figureAt(const std::string& text, std::size_t open, std::size_t close) {
  if (close == std::string::npos || close == open + 1) return false;
  for (std::size_t i = open + 1; i < close; ++i)
    if (!std::isalpha(static_cast<unsigned char>(text[i])) && text[i] != '.') return false;
  return true;
}

// The first {name} of `text` that lessonFigures() does not know, or "".
std::string unknownFigure(const std::string& text) {
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
    const std::size_t close = text.find('}', open);
    if (!figureAt(text, open, close)) continue;
    const std::string name = text.substr(open + 1, close - open - 1);
    if (std::none_of(std::begin(kFigures), std::end(kFigures), [&](const LessonFigure& f) { return name == f.name; }))
      return "{" + name + "}";
  }
  return "";
}

std::string whole(uint64_t v) { return std::to_string(v); }

// Three significant figures, no exponent for the sizes a lesson meets ("0.25", "32", "1.59e+03" never).
std::string decimal(double v) {
  char text[32];
  if (v >= 100.0) std::snprintf(text, sizeof text, "%.0f", v);
  else std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

}  // namespace

std::span<const LessonFigure> lessonFigures() { return kFigures; }

LessonValues lessonValues(const AnalysisReport& a, const LaunchConfig& c) {
  const Traffic& t = a.traffic;
  const BankReport& b = a.banks;
  const uint64_t mads = t.flops / 2;
  const uint64_t dram = 4ull * (uint64_t(c.dims.j) * uint64_t(c.dims.k) + uint64_t(c.dims.k) * uint64_t(c.dims.l));
  int worst = 0;
  for (const SharedRequest& s : b.requests) worst = std::max(worst, s.wavefronts);
  auto percent = [](double fraction) { return decimal(100.0 * fraction); };
  return {
      {"j", std::to_string(c.dims.j)}, {"k", std::to_string(c.dims.k)}, {"l", std::to_string(c.dims.l)},
      {"tile", std::to_string(c.tile)}, {"blockX", std::to_string(c.blockX)}, {"blockY", std::to_string(c.blockY)},
      {"threads", std::to_string(c.blockX * c.blockY)},
      {"mads", whole(mads)}, {"flops", whole(t.flops)}, {"loadBytes", whole(t.loadBytes)},
      {"storeBytes", whole(t.storeBytes)}, {"intensity", decimal(t.intensity())}, {"dramBytes", whole(dram)},
      {"cacheReuse", decimal(dram ? double(t.loadBytes) / double(dram) : 0.0)},
      {"dramIntensity", decimal(dram ? double(t.flops) / double(dram) : 0.0)},
      {"loads.requests", whole(a.coalescing.loads.requests)}, {"loads.sectors", whole(a.coalescing.loads.sectors)},
      {"loads.efficiency", percent(a.coalescing.loads.efficiency())},
      {"stores.sectorsPerRequest", decimal(a.coalescing.stores.sectorsPerRequest())},
      {"stores.efficiency", percent(a.coalescing.stores.efficiency())},
      {"banks.requests", whole(b.loads.requests)}, {"banks.wavefronts", whole(b.loads.wavefronts)},
      {"banks.conflicts", whole(b.loads.conflicts())}, {"banks.storeRequests", whole(b.stores.requests)},
      {"banks.storeWavefronts", whole(b.stores.wavefronts)}, {"banks.storeConflicts", whole(b.stores.conflicts())},
      {"banks.worst", std::to_string(worst)},
      {"banks.readsPerMad", decimal(mads ? double(b.loads.requests) * 32.0 / double(mads) : 0.0)},
      {"roofline.gflops", decimal(a.roofline.attainableGflops)}, {"roofline.ridge", decimal(ridgeIntensity(a.profile))},
      {"roofline.bandwidth", decimal(a.profile.bandwidthGBs)}, {"roofline.peak", decimal(a.profile.peakGflops)},
      {"occupancy.percent", percent(a.occupancy.occupancy)}, {"occupancy.blocksPerSm", std::to_string(a.occupancy.blocksPerSm)},
  };
}

std::string fillFigures(const std::string& text, const LessonValues& values) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', at)) {
    const std::size_t close = text.find('}', open);
    if (!figureAt(text, open, close)) {
      out += text.substr(at, open + 1 - at);
      at = open + 1;
      continue;
    }
    out += text.substr(at, open - at);
    const auto it = values.find(text.substr(open + 1, close - open - 1));
    out += it != values.end() ? it->second : "?" + text.substr(open, close - open + 1) + "?";
    at = close + 1;
  }
  return out + text.substr(std::min(at, text.size()));
}

std::vector<std::string> figureNames(const std::string& text) {
  std::vector<std::string> names;
  for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1))
    if (const std::size_t close = text.find('}', open); figureAt(text, open, close))
      names.push_back(text.substr(open + 1, close - open - 1));
  return names;
}

namespace {

// A page's `text` line: a paragraph goes on until an empty `text`. "" or what is wrong.
std::string addText(LessonPage& page, const std::string& words, bool& paragraphOpen) {
  if (std::string unknown = unknownFigure(words); !unknown.empty()) {
    std::string names;
    for (const LessonFigure& f : kFigures) names += (names.empty() ? "" : ", ") + std::string(f.name);
    return "no figure " + unknown + " (the figures are " + names + ")";
  }
  if (words.empty()) {
    paragraphOpen = false;
  } else if (paragraphOpen) {
    page.paragraphs.back() += " " + words;
  } else {
    page.paragraphs.push_back(words);
    paragraphOpen = true;
  }
  return "";
}

// A page's `panels NAME[, NAME...]` line. "" or what is wrong.
std::string setPanels(LessonPage& page, const std::string& rest, int number) {
  if (!page.panels.empty()) return "a page has one panels line";
  std::istringstream names(rest);
  for (std::string name; std::getline(names, name, ',');) {
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.empty()) return "usage: panels NAME[, NAME...] (an empty name between commas)";
    page.panels.push_back(name);
  }
  if (page.panels.empty()) return "usage: panels NAME[, NAME...]";
  page.panelsLine = number;
  return "";
}

// A page's `constants N[, N...] -- WHERE` line. "" or what is wrong.
std::string addConstants(LessonPage& page, const std::string& rest) {
  const std::size_t why = rest.find("--");
  if (why == std::string::npos || rest.find_first_not_of(" -", why) == std::string::npos)
    return "usage: constants N[, N...] -- WHERE THEY COME FROM";
  std::istringstream numbers(rest.substr(0, why));
  for (std::string n; std::getline(numbers, n, ',');) {
    std::erase(n, ' ');
    double x = 0;
    if (!toNumber(n, x)) return "constants: '" + n + "' is not a number";
    page.constants.push_back(n);
  }
  return "";
}

}  // namespace

namespace {
// A page's launch must plan, and its view commands fit it. A launch too large to trace is a plan
// page (issue 28: rung 8 at 1024): the app shows its grid as planned, with no trace, so nothing
// on it may select, seek or step into one. "" or what is wrong, `line` set to where.
std::string checkPageLaunch(LessonPage& page, int& line) {
  auto plan = planLaunch(page.config, true);
  page.planOnly = !plan;
  if (page.planOnly) plan = planLaunch(page.config, false);
  if (!plan) return "page '" + page.title + "' ends on a launch that cannot run: " + plan.error().message;
  for (const LessonCommand& cmd : page.commands) {
    const std::string& c = cmd.words[0];
    if (c == "set" || c == "bug") continue;
    line = cmd.line;
    if (page.planOnly && c != "show" && c != "timing")
      return "'" + c + "' on a page whose launch is too large to trace (a plan: " + describe(page.config) +
             "): only show and timing apply";
    if (std::string problem = checkView(cmd.words, *plan); !problem.empty()) return problem;
  }
  return "";
}
}  // namespace

Result<Lesson> parseLesson(const std::string& file, const std::string& text) {
  Lesson lesson;
  lesson.file = file;
  lesson.name = lessonName(file);
  auto bad = [&](int line, const std::string& message) {
    return invalidInput(file + ":" + std::to_string(line) + ": " + message);
  };
  LaunchConfig config;  // carried from page to page
  std::string profile;  // `set profile`: carried too (a built-in one: a page looks the same on any machine)
  std::istringstream in(text);
  std::string line;
  int number = 0;
  bool paragraphOpen = false;

  // Finishes the current page: its launch must plan, and its view commands fit it.
  auto closePage = [&]() -> std::optional<Error> {
    if (lesson.pages.empty()) return std::nullopt;
    LessonPage& page = lesson.pages.back();
    if (page.paragraphs.empty()) return bad(page.line, "page '" + page.title + "' has no text");
    page.config = config;
    page.profile = profile;
    int line = page.line;
    if (std::string problem = checkPageLaunch(page, line); !problem.empty()) return bad(line, problem);
    return std::nullopt;
  };

  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::vector<std::string> w = splitWords(line);
    if (w.empty() || w[0][0] == '#') continue;
    const std::string& c = w[0];
    if (c == "title") {
      if (!lesson.title.empty()) return bad(number, "a lesson has one title");
      if (!lesson.pages.empty()) return bad(number, "the title comes before the first page");
      lesson.title = restOf(line, "title");
      if (lesson.title.empty()) return bad(number, "usage: title TEXT");
      continue;
    }
    if (c == "page") {
      if (auto e = closePage()) return *e;
      LessonPage page;
      page.line = number;
      page.title = restOf(line, "page");
      if (page.title.empty()) return bad(number, "usage: page TITLE");
      lesson.pages.push_back(std::move(page));
      paragraphOpen = false;
      continue;
    }
    if (lesson.pages.empty()) return bad(number, "'" + c + "' before the first page (start one with: page TITLE)");
    LessonPage& page = lesson.pages.back();
    if (c == "text" || c == "panels" || c == "constants") {
      const std::string problem = c == "text"     ? addText(page, restOf(line, "text"), paragraphOpen)
                                  : c == "panels" ? setPanels(page, restOf(line, "panels"), number)
                                                  : addConstants(page, restOf(line, "constants"));
      if (!problem.empty()) return bad(number, problem);
      continue;
    }
    if (c == "bug") {
      if (std::string problem = applyBug(w, config); !problem.empty()) return bad(number, problem);
    } else if (c == "set") {
      if (std::string problem = applySet(w, config, profile); !problem.empty()) return bad(number, problem);
    } else if (std::string problem = checkView(w, LaunchPlan{}); problem.rfind("unknown command", 0) == 0) {
      return bad(number, problem + " (lesson commands: title, page, text, panels, constants, bug, set, select, seek, step, show, follow, timing, play, frames)");
    }
    page.commands.push_back({number, w});
  }
  if (auto e = closePage()) return *e;
  if (lesson.title.empty()) return bad(1, "the lesson has no title line");
  if (lesson.pages.empty()) return bad(number, "the lesson has no pages");
  return lesson;
}

Result<Lesson> loadLesson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidInput(path + ": cannot open the lesson file");
  std::stringstream text;
  text << in.rdbuf();
  return parseLesson(path, text.str());
}

Result<std::vector<Lesson>> loadLessonDirectory(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".lesson") files.push_back(entry.path().string());
  if (ec) return invalidInput(dir + ": cannot read the lesson directory");
  std::sort(files.begin(), files.end());
  std::vector<Lesson> lessons;
  for (const std::string& f : files) {
    auto lesson = loadLesson(f);
    if (!lesson) return lesson.error();
    lessons.push_back(std::move(*lesson));
  }
  if (lessons.empty()) return invalidInput(dir + ": no .lesson files");
  return lessons;
}

Result<std::string> defaultLessonDirectory() {
  if (const char* env = std::getenv("TILESCOPE_LESSONS"); env && *env) return std::string(env);
  auto dir = assetPath("lessons");
  if (!dir) return dir.error();
  return dir->string();
}

const Lesson* findLesson(const std::vector<Lesson>& lessons, const std::string& key) {
  long long number = 0;
  const bool numeric = toInt(key, number);
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    const Lesson& l = lessons[i];
    if (l.name == key || std::filesystem::path(l.file).filename().string() == key ||
        std::filesystem::path(l.file).stem().string() == key || (numeric && number == long(i) + 1))
      return &l;
  }
  return nullptr;
}

std::vector<std::string> pageScript(const LessonPage& page) {
  std::vector<std::string> lines;
  for (const LessonCommand& cmd : page.commands) {
    if (cmd.words[0] == "bug") {
      const Bug* bug = findBug(cmd.words[1]);
      auto c = bugConfig(*bug, cmd.words.size() == 3, page.config.seed);
      if (!c) continue;  // checked when the lesson was parsed
      lines.push_back("set kernel " + std::string(kernelInfo(c->kernel).name));
      lines.push_back("set dims " + std::to_string(c->dims.j) + " " + std::to_string(c->dims.k) + " " +
                      std::to_string(c->dims.l));
      lines.push_back("set tile " + std::to_string(c->tile));
      lines.push_back("set block " + std::to_string(c->blockX) + " " + std::to_string(c->blockY));
      continue;
    }
    std::string s;
    for (const std::string& w : cmd.words) s += (s.empty() ? "" : " ") + w;
    lines.push_back(s);
  }
  return lines;
}

}  // namespace tilescope
