#include "core/teaching/lesson.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/asset_paths.h"
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

// Applies a `set` to the page's launch; returns the problem or "".
std::string applySet(const std::vector<std::string>& w, LaunchConfig& c) {
  const std::size_t n = w.size();
  if (n < 3) return "usage: set WHAT VALUE";
  const std::string& what = w[1];
  std::vector<long long> v;  // the arguments, when every one is a whole number
  for (std::size_t i = 2; i < n; ++i) {
    long long x = 0;
    if (!toInt(w[i], x)) {
      v.clear();
      break;
    }
    v.push_back(x);
  }
  auto ints = [&](std::size_t count, long long lo, long long hi) {
    return n == 2 + count && v.size() == count &&
           std::all_of(v.begin(), v.end(), [&](long long x) { return x >= lo && x <= hi; });
  };
  if (what == "kernel") {
    auto id = n == 3 ? kernelByName(w[2]) : std::nullopt;
    if (!id) return "unknown kernel '" + w[2] + "'";
    c = withKernel(c, *id);
  } else if (what == "size") {
    if (!ints(1, 1, kMaxDimension)) return "set size takes one whole number, 1 to " + std::to_string(kMaxDimension);
    c.dims = {int(v[0]), int(v[0]), int(v[0])};
  } else if (what == "dims") {
    if (!ints(3, 1, kMaxDimension)) return "usage: set dims J K L (whole numbers, 1 to " + std::to_string(kMaxDimension) + ")";
    c.dims = {int(v[0]), int(v[1]), int(v[2])};
  } else if (what == "tile") {
    if (!ints(1, 1, kMaxTileWidth)) return "set tile takes a whole number, 1 to " + std::to_string(kMaxTileWidth);
    c.tile = int(v[0]);
  } else if (what == "block") {
    if (!ints(2, 1, kMaxThreadsPerBlock)) return "usage: set block BX BY";
    c.blockX = int(v[0]);
    c.blockY = int(v[1]);
  } else if (what == "tiling") {
    auto t = n == 3 ? parseTilingOrDefault(w[2]) : Result<Tiling>(invalidInput("usage: set tiling BMxBNxBK/TMxTN|default"));
    if (!t) return t.error().message;
    c.tiling = *t;
  } else if (what == "seed") {
    if (!ints(1, 0, (1ll << 62))) return "set seed takes a whole number";
    c.seed = uint64_t(v[0]);
  } else if (what == "granularity") {
    if (n != 3 || (w[2] != "phase" && w[2] != "interval" && w[2] != "k")) return "usage: set granularity phase|interval|k";
  } else if (what == "speed") {
    double d = 0;
    if (n != 3 || !toNumber(w[2], d) || d <= 0) return "set speed takes a positive number (steps per second)";
  } else {
    return "'set " + what + "' is not available in a lesson (kernel, size, dims, tile, block, tiling, seed, granularity, speed)";
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

}  // namespace

Result<Lesson> parseLesson(const std::string& file, const std::string& text) {
  Lesson lesson;
  lesson.file = file;
  lesson.name = lessonName(file);
  auto bad = [&](int line, const std::string& message) {
    return invalidInput(file + ":" + std::to_string(line) + ": " + message);
  };
  LaunchConfig config;  // carried from page to page
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
    auto plan = planLaunch(config, true);
    if (!plan) return bad(page.line, "page '" + page.title + "' ends on a launch that cannot run: " + plan.error().message);
    for (const LessonCommand& cmd : page.commands) {
      if (cmd.words[0] == "set" || cmd.words[0] == "bug") continue;
      if (std::string problem = checkView(cmd.words, *plan); !problem.empty()) return bad(cmd.line, problem);
    }
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
    if (c == "text") {
      const std::string words = restOf(line, "text");
      if (words.empty()) {
        paragraphOpen = false;
      } else if (paragraphOpen) {
        page.paragraphs.back() += " " + words;
      } else {
        page.paragraphs.push_back(words);
        paragraphOpen = true;
      }
      continue;
    }
    if (c == "panels") {
      if (!page.panels.empty()) return bad(number, "a page has one panels line");
      std::istringstream names(restOf(line, "panels"));
      for (std::string name; std::getline(names, name, ',');) {
        while (!name.empty() && name.front() == ' ') name.erase(name.begin());
        while (!name.empty() && name.back() == ' ') name.pop_back();
        if (name.empty()) return bad(number, "usage: panels NAME[, NAME...] (an empty name between commas)");
        page.panels.push_back(name);
      }
      if (page.panels.empty()) return bad(number, "usage: panels NAME[, NAME...]");
      page.panelsLine = number;
      continue;
    }
    if (c == "bug") {
      const Bug* bug = w.size() >= 2 ? findBug(w[1]) : nullptr;
      if (!bug || w.size() > 3 || (w.size() == 3 && w[2] != "fixed"))
        return bad(number, w.size() >= 2 && !bug ? "unknown bug '" + w[1] + "' (see tilescope-cli bugs)"
                                                 : "usage: bug ID [fixed]");
      auto bc = bugConfig(*bug, w.size() == 3, config.seed);
      if (!bc) return bad(number, bc.error().message);
      config = *bc;
    } else if (c == "set") {
      if (std::string problem = applySet(w, config); !problem.empty()) return bad(number, problem);
    } else if (std::string problem = checkView(w, LaunchPlan{}); problem.rfind("unknown command", 0) == 0) {
      return bad(number, problem + " (lesson commands: title, page, text, panels, bug, set, select, seek, step, show, follow, timing, play, frames)");
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
