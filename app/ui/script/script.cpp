#include "ui/script/script.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/run/run_description.h"
#include "ui/script/lab_script.h"
#include "ui/state/panel_list.h"
#include "ui/model/presets.h"

namespace tilescope::ui {
namespace {

constexpr double kRunTimeoutSeconds = 120.0;
constexpr int kSettleFrames = 2;  // frames rendered after the last change before a capture

bool parseInt(const std::string& s, int& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// strtod, not stod: the web build (emscripten) catches no exceptions, so a throw would abort.
bool parseDouble(const std::string& s, double& out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return errno != ERANGE && end == s.c_str() + s.size();
}

// `export gif|frames PATH [phase P | page] [size W H]`: the request, or the problem.
std::pair<ExportAnimation, std::string> parseAnimation(const std::vector<std::string>& w) {
  ExportAnimation a;
  a.format = w[1] == "gif" ? AnimationFormat::Gif : AnimationFormat::Frames;
  a.path = w[2];
  const std::string usage = "usage: export " + w[1] + " PATH [phase P | page] [size W H]";
  for (std::size_t k = 3; k < w.size();) {
    if (w[k] == "phase" && k + 1 < w.size() && parseInt(w[k + 1], a.phase) && a.phase >= 0) {
      a.range = AnimationRange::Phase;
      k += 2;
    } else if (w[k] == "page") {
      a.range = AnimationRange::Page;
      k += 1;
    } else if (w[k] == "size" && k + 2 < w.size() && parseInt(w[k + 1], a.width) && parseInt(w[k + 2], a.height)) {
      if (a.width < 1 || a.height < 1 || a.width > 8192 || a.height > 8192) return {a, "export size: 1 to 8192 pixels each way"};
      k += 3;
    } else {
      return {a, usage};
    }
  }
  return {a, ""};
}

// Whether w holds exactly `count` integers from `from` on; `last` gets the last one.
bool intsAt(const std::vector<std::string>& w, std::size_t from, std::size_t count, int& last) {
  if (w.size() != from + count) return false;
  for (std::size_t k = from; k < w.size(); ++k)
    if (!parseInt(w[k], last)) return false;
  return true;
}

// How a script's `set` of the run is read (core/run/run_description.h). The settings a person
// changes with a slider (size, dims, tile, block) keep their ranges for the plan, which refuses
// a value past them as the app refuses a slider's (the picture kept, the reason in the centre);
// the others are told at their line.
Ranges scriptRanges(const std::string& what) {
  return what == "size" || what == "dims" || what == "tile" || what == "block" ? Ranges::LeftToThePlan : Ranges::Checked;
}

// Checks a `set WHAT VALUE` line; returns the problem or "".
std::string checkSetting(const std::vector<std::string>& w) {
  const std::size_t n = w.size();
  double d = 0;
  if (n < 3) return "usage: set WHAT VALUE";
  const std::string& what = w[1];
  if (isRunSetting(what)) {
    LaunchConfig scratch;
    const Status read = readRunSetting(scratch, what, {w.begin() + 2, w.end()}, scriptRanges(what));
    return read ? "" : "set " + what + " " + read.error().message;
  }
  if (what == "profile")  // whether "device" is there is known only once the app runs; default: the app's own choice
    return n == 3 && (w[2] == kDeviceProfileName || w[2] == "default" || profileByName(w[2]))
               ? ""
               : "set profile default|device|" + profileNames();
  if (what == "backend") return n == 3 && (w[2] == "emulator" || w[2] == "cuda") ? "" : "set backend emulator|cuda";
  if (what == "presentation") return n == 3 && (w[2] == "on" || w[2] == "off") ? "" : "set presentation on|off";
  if (what == "presenter") return n == 3 && (w[2] == "on" || w[2] == "off") ? "" : "set presenter on|off";
  if (what == "shading") return n == 3 && (w[2] == "on" || w[2] == "off" || w[2] == "auto") ? "" : "set shading on|off|auto";
  if (what == "palette") return n == 3 && (w[2] == "okabe-ito" || w[2] == "vivid") ? "" : "set palette okabe-ito|vivid";
  if (what == "granularity")
    return n == 3 && (w[2] == "phase" || w[2] == "interval" || w[2] == "k") ? "" : "set granularity phase|interval|k";
  if (what == "font-scale" || what == "speed") return n == 3 && parseDouble(w[2], d) ? "" : "set " + what + " takes a number";
  return "unknown setting '" + what + "'";
}

// Checks one line's shape; returns the problem or "".
std::string check(const std::vector<std::string>& w) {
  const std::string& c = w[0];
  const std::size_t n = w.size();
  int i = 0;
  auto ints = [&](std::size_t from, std::size_t count) { return intsAt(w, from, count, i); };
  if (c == "preset") {
    if (n != 2) return "usage: preset NAME";
    return findPreset(w[1]) ? "" : "unknown preset '" + w[1] + "'";
  }
  if (c == "set") return checkSetting(w);
  if (c == "select") return n == 4 && w[1] == "block" && ints(2, 2) ? "" : "usage: select block BX BY";
  if (c == "step") return ints(1, 1) ? "" : "usage: step N";
  if (c == "seek") {
    if (n == 2 && (w[1] == "start" || w[1] == "end")) return "";
    return n == 3 && w[1] == "phase" && parseInt(w[2], i) ? "" : "usage: seek phase P | seek start | seek end";
  }
  if (c == "play" || c == "frames") return ints(1, 1) && i >= 0 ? "" : "usage: " + c + " FRAMES";
  if (c == "wait" || c == "quit" || c == "report") return n == 1 ? "" : c + " takes no arguments";
  if (c == "show") {
    std::string name;
    for (std::size_t k = 1; k < n; ++k) name += (k > 1 ? " " : "") + w[k];
    return findPanel(name) ? "" : "unknown panel '" + name + "'";
  }
  if (c == "timing") {
    const bool ok = (n == 3 && w[1] == "page" && (w[2] == "plot" || w[2] == "table" || w[2] == "ladder")) ||
                    (n == 3 && w[1] == "sweep" && (w[2] == "live" || w[2] == "lecture" || w[2] == "ladder" || w[2] == "lab")) ||
                    (n == 2 && (w[1] == "cancel" || w[1] == "wait"));
    return ok ? "" : "usage: timing page plot|table|ladder | timing sweep live|lecture|ladder|lab | timing cancel | timing wait";
  }
  if (c == "screenshot" || c == "layout") return n == 2 ? "" : "usage: " + c + " FILE";
  if (c == "open") return n >= 2 ? "" : "usage: open FILE.tstrace";
  if (c == "lesson") return n == 2 ? "" : "usage: lesson NAME | lesson next | lesson back";
  if (c == "follow")
    return (n == 4 && w[1] == "thread" && ints(2, 2) && i >= 0) || (n == 2 && w[1] == "off") ? ""
                                                                                           : "usage: follow thread TX TY | follow off";
  if (c == "export" && n >= 3 && (w[1] == "gif" || w[1] == "frames")) return parseAnimation(w).second;
  if (c == "export")
    return n == 3 && (w[1] == "trace" || w[1] == "chrome" || w[1] == "png")
               ? ""
               : "usage: export trace|chrome|png FILE | export gif|frames PATH [phase P | page] [size W H]";
  if (c == "lab") return checkLabCommand(w);
  if (c == "expect") {
    if (n == 2 && w[1] == "no-error") return "";
    return n >= 3 && w[1] == "error" ? "" : "usage: expect error TEXT | expect no-error";
  }
  return "unknown command '" + c + "'";
}

std::string rest(const std::vector<std::string>& w, std::size_t from) {
  std::string out;
  for (std::size_t k = from; k < w.size(); ++k) out += (k > from ? " " : "") + w[k];
  return out;
}

}  // namespace

Result<Script> parseScript(const std::string& file, const std::string& text) {
  Script script;
  script.file = file;
  std::istringstream in(text);
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    if (const auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
    std::istringstream words(raw);
    ScriptLine line{number, {}};
    for (std::string w; words >> w;) line.words.push_back(w);
    if (line.words.empty()) continue;
    if (std::string problem = check(line.words); !problem.empty())
      return invalidInput(file + ":" + std::to_string(number) + ": " + problem);
    script.lines.push_back(std::move(line));
  }
  return script;
}

Result<Script> loadScript(const std::string& path) {
  std::ifstream in(path);
  if (!in) return invalidInput(path + ": cannot open the script");
  std::ostringstream text;
  text << in.rdbuf();
  return parseScript(path, text.str());
}

namespace {
// Intents that only move the view of the run on screen (none starts a run or reads one that is
// not there yet). They apply in the order queued, so a view command may queue more behind them
// in the same frame: a lesson page's dozen view lines then take a frame, not one each.
bool viewOnly(const IntentQueue& q) {
  return std::all_of(q.begin(), q.end(), [](const Intent& i) {
    return std::holds_alternative<SelectBlock>(i) || std::holds_alternative<Step>(i) ||
           std::holds_alternative<SeekPhase>(i) || std::holds_alternative<SeekStart>(i) ||
           std::holds_alternative<SeekEnd>(i) || std::holds_alternative<ShowPanel>(i) ||
           std::holds_alternative<FollowThread>(i) || std::holds_alternative<SetGranularity>(i) ||
           std::holds_alternative<SetSpeed>(i);
  });
}
}  // namespace

bool ScriptRunner::timesFrames() const {
  return std::any_of(script_.lines.begin(), script_.lines.end(), [](const ScriptLine& l) { return l.words[0] == "report"; });
}

Status ScriptRunner::fail(const ScriptLine& line, const std::string& message) const {
  return failure(script_.file + ":" + std::to_string(line.number) + ": " + message);
}

namespace {
bool isAnimation(const std::vector<std::string>& w) { return w[0] == "export" && (w[1] == "gif" || w[1] == "frames"); }
}  // namespace

Status ScriptRunner::tick(AppState& state, bool runPending, ScriptRequests& requests) {
  waitsForWork_ = false;
  if (framesToWait_ > 0) {
    if (--framesToWait_ > 0) return Ok{};
    if (playing_) state.intents.push_back(SetPlaying{false});
    playing_ = false;
  }
  while (next_ < script_.lines.size()) {
    const ScriptLine& line = script_.lines[next_];
    if (std::optional<Status> held = holds(state, runPending, line)) return *held;
    if (asks(state, line.words)) return Ok{};
    settle_ = 0;
    ++next_;
    bool yield = false;
    if (auto s = perform(state, line, requests, yield); !s) return s;
    if (yield) return Ok{};
    // "wait" needs nothing more: reaching it means the run is in.
  }
  return Ok{};
}

std::optional<Status> ScriptRunner::holds(const AppState& state, bool runPending, const ScriptLine& line) {
  const auto& w = line.words;
  const std::string& c = w[0];
  // `set profile` waits like the rest: "device" is known once the first run has come back.
  const bool configures = c == "preset" || (c == "set" && w[1] != "profile") || (c == "lab" && !labCommandWaits(w));
  // Every command but set/preset acts on the newest run, so it waits for it.
  const bool viewCommand = c == "select" || c == "step" || c == "seek" || c == "show" || c == "follow";
  if (!configures && (runPending || (!state.intents.empty() && !(viewCommand && viewOnly(state.intents))))) {
    if (waitStarted_ < 0) waitStarted_ = state.now;
    if (state.now - waitStarted_ > kRunTimeoutSeconds) return fail(line, "timed out waiting for the kernel run");
    waitsForWork_ = runPending;
    return Status(Ok{});
  }
  waitStarted_ = -1.0;
  // A timing sweep runs in the background (screenshots may show its progress); only
  // `timing wait` waits for it.
  const TimingState& timing = state.timing;
  if (c == "timing" && w[1] == "wait" && (timing.running || timing.sweepRequested != timing.sweepSubmitted)) {
    if (sweepWaitStarted_ < 0) sweepWaitStarted_ = state.now;
    if (state.now - sweepWaitStarted_ > kRunTimeoutSeconds) return fail(line, "timed out waiting for the timing sweep");
    waitsForWork_ = true;
    return Status(Ok{});
  }
  sweepWaitStarted_ = -1.0;
  if ((c == "screenshot" || c == "layout") && settle_ < kSettleFrames) {
    ++settle_;
    return Status(Ok{});  // let the frame reflect every change first
  }
  return std::nullopt;
}

bool ScriptRunner::asks(AppState& state, const std::vector<std::string>& w) {
  const std::string& c = w[0];
  if (c == "open" && !opening_) {
    opening_ = true;  // ask now; the pass after the wait above sees whether it opened
    state.intents.push_back(OpenTraceFile{rest(w, 1)});
    return true;
  }
  if (c == "lesson" && !lessonAsked_) {
    lessonAsked_ = true;  // ask now; the page's commands run, then the wait above lets this through
    const LessonState& ls = state.lesson;
    if (w[1] == "next" || w[1] == "back") {
      // No lesson open: nothing is asked, and the line fails when it is performed.
      if (ls.lesson()) state.intents.push_back(LessonGoTo{ls.page + (w[1] == "next" ? 1 : -1)});
      else lessonAsked_ = false, noLesson_ = true;
      return ls.lesson() != nullptr;
    }
    state.intents.push_back(OpenLesson{w[1]});
    return true;
  }
  if (c == "lab" && !labAsked_) {
    if (auto start = labCommandStart(w)) {
      labAsked_ = true;  // ask now; the wait above holds the line until the job has come back
      state.intents.push_back(std::move(*start));
      return true;
    }
  }
  if (isAnimation(w) && !exportAsked_) {
    exportAsked_ = true;  // ask now; the frame loop writes it (the wait above), then the result is checked
    state.intents.push_back(parseAnimation(w).first);
    return true;
  }
  return false;
}

Status ScriptRunner::performSet(AppState& state, const ScriptLine& line, bool& yield) {
  const auto& w = line.words;
  auto& q = state.intents;
  double d = 0;
  LaunchConfig config = state.request.config;
  const std::string& what = w[1];
  if (isRunSetting(what)) {  // checked when the script was read (checkSetting)
    if (Status read = readRunSetting(config, what, {w.begin() + 2, w.end()}, scriptRanges(what)); !read)
      return fail(line, "set " + what + " " + read.error().message);
  } else if (what == "profile") {
    if (w[2] == "default") {
      q.push_back(SetAnalysisProfile{""});
    } else {
      if (auto ok = checkAnalysisProfile(state.analysis, w[2]); !ok) return fail(line, ok.error().message);
      q.push_back(SetAnalysisProfile{w[2]});
    }
  }
  else if (what == "backend") q.push_back(SetBackend{w[2] == "cuda" ? BackendChoice::Cuda : BackendChoice::Emulator});
  else if (what == "presentation") q.push_back(SetPresentation{w[2] == "on"});
  else if (what == "presenter") q.push_back(SetPresenter{w[2] == "on"});
  else if (what == "shading")
    q.push_back(SetLoadShading{w[2] == "on" ? LoadShading::On : w[2] == "off" ? LoadShading::Off : LoadShading::Auto});
  else if (what == "palette") q.push_back(SetPalette{w[2] == "vivid" ? Palette::Vivid : Palette::OkabeIto});
  else if (what == "font-scale") parseDouble(w[2], d), q.push_back(SetFontScale{float(d)});
  else if (what == "speed") parseDouble(w[2], d), q.push_back(SetSpeed{d});
  else if (what == "granularity")
    q.push_back(SetGranularity{w[2] == "phase" ? Granularity::Phase
                               : w[2] == "interval" ? Granularity::Interval : Granularity::KStep});
  if (!(config == state.request.config)) {
    q.push_back(SetConfig{config});
    yield = true;  // the next set line builds on this one once applyIntents has taken it
  }
  return Ok{};
}

void ScriptRunner::performTiming(AppState& state, const std::vector<std::string>& w) {
  if (w[1] == "page") {
    TimingView v = state.timing.view;
    v.page = w[2] == "table" ? TimingPage::Table : w[2] == "ladder" ? TimingPage::Ladder : TimingPage::Plot;
    state.intents.push_back(TimingIntent{SetTimingView{v}});
  } else if (w[1] == "sweep") {
    const SweepKind kind = w[2] == "lecture" ? SweepKind::Lecture
                           : w[2] == "ladder" ? SweepKind::Ladder
                           : w[2] == "lab"    ? SweepKind::Lab
                                              : SweepKind::Live;
    state.intents.push_back(TimingIntent{StartSweep{SweepSpec{kind, {}}}});
  } else if (w[1] == "cancel") {
    state.intents.push_back(TimingIntent{CancelSweep{}});
  }  // wait: done in holds()
}

// The line's effect, now that what it waits for is in; `yield`: the rest waits for a later frame.
Status ScriptRunner::perform(AppState& state, const ScriptLine& line, ScriptRequests& requests, bool& yield) {
  const auto& w = line.words;
  const std::string& c = w[0];
  auto& q = state.intents;
  int a = 0, b = 0;
  yield = c == "screenshot" || c == "layout" || c == "lab" || c == "quit";
  if (c == "preset") {
    q.push_back(ApplyPreset{w[1]});
  } else if (c == "set") {
    return performSet(state, line, yield);
  } else if (c == "select") {
    parseInt(w[2], a), parseInt(w[3], b);
    q.push_back(SelectBlock{a, b});
  } else if (c == "step") {
    parseInt(w[1], a);
    q.push_back(Step{a});
  } else if (c == "seek") {
    if (w[1] == "start") q.push_back(SeekStart{});
    else if (w[1] == "end") q.push_back(SeekEnd{});
    else parseInt(w[2], a), q.push_back(SeekPhase{a});
  } else if (c == "play" || c == "frames") {
    parseInt(w[1], a);
    if (c == "play") q.push_back(SetPlaying{true});
    playing_ = c == "play";
    framesToWait_ = a;
    yield = a > 0;
  } else if (c == "show") {
    q.push_back(ShowPanel{rest(w, 1)});
  } else if (c == "timing") {
    performTiming(state, w);
  } else if (c == "screenshot") {
    requests.screenshot = w[1];
  } else if (c == "layout") {
    requests.layout = w[1];
  } else if (c == "open") {
    opening_ = false;
    if (!state.request.error.empty()) return fail(line, state.request.error);
  } else if (isAnimation(w)) {
    exportAsked_ = false;
    if (state.view.exportFailed) return fail(line, state.view.exported);
    std::printf("tilescope: %s\n", state.view.exported.c_str());
  } else if (c == "follow") {
    if (w[1] == "off") q.push_back(FollowThread{-1, -1});
    else parseInt(w[2], a), parseInt(w[3], b), q.push_back(FollowThread{a, b});
  } else if (c == "export") {
    const ExportKind kind = w[1] == "trace" ? ExportKind::TraceFile : w[1] == "chrome" ? ExportKind::ChromeJson : ExportKind::Png;
    q.push_back(ExportView{kind, w[2]});
  } else if (c == "lesson") {
    lessonAsked_ = false;
    if (std::exchange(noLesson_, false)) return fail(line, "no lesson is open: use lesson NAME first");
    if (!state.lesson.error.empty()) return fail(line, state.lesson.error);
  } else if (c == "expect") {
    return expectError(line, state.request.error);
  } else if (c == "lab") {
    labAsked_ = false;  // the next lab line builds on this one once applyIntents has taken it
    if (auto s = labCommandDone(state, w); !s) return fail(line, s.error().message);
  } else if (c == "report") {
    requests.report = true;
  } else if (c == "quit") {
    q.push_back(Quit{});
  }
  return Ok{};
}

Status ScriptRunner::expectError(const ScriptLine& line, const std::string& error) const {
  const auto& w = line.words;
  if (w[1] == "no-error" && !error.empty()) return fail(line, "expected no error, the app shows: " + error);
  if (w[1] == "error") {
    const std::string want = rest(w, 2);
    if (error.find(want) == std::string::npos)
      return fail(line, "expected an error containing '" + want + "', the app shows: '" + error + "'");
  }
  return Ok{};
}

}  // namespace tilescope::ui
