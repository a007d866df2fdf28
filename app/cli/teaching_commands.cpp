// The teaching commands: `bugs` (the gallery), `save` (a traced run to a .tstrace file),
// `open` (a saved run's summary) and their `--chrome FILE` export for Perfetto.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include "commands.h"
#include "core/teaching/bugs.h"
#include "core/files/chrome_trace.h"
#include "core/json_writer.h"
#include "core/teaching/lesson.h"
#include "core/files/trace_file.h"

namespace tilescope::cli {

namespace {

// The command's own flags from Options::extra: "--name value" pairs and bare switches.
Result<std::map<std::string, std::string>> commandFlags(const Options& o, std::initializer_list<const char*> valued,
                                                        std::initializer_list<const char*> switches) {
  std::map<std::string, std::string> flags;
  for (std::size_t i = 0; i < o.extra.size(); ++i) {
    const std::string& f = o.extra[i];
    bool known = false;
    for (const char* v : valued)
      if (f == v) {
        if (i + 1 >= o.extra.size() || o.extra[i + 1].rfind("--", 0) == 0) return invalidInput(f + " needs a value");
        flags[f] = o.extra[++i];
        known = true;
      }
    for (const char* s : switches)
      if (f == s) flags[f] = "", known = true;
    if (!known) return invalidInput("unknown flag '" + f + "' for '" + o.command + "'");
  }
  return flags;
}


Status exportChrome(const Run& run, const std::string& path) {
  if (!run.trace) return invalidInput("the run has no trace to export");
  std::ofstream file(path, std::ios::binary);
  if (!file) return invalidInput("cannot open '" + path + "' for writing");
  writeChromeTrace(file, run, defaultChromeTimebase(run));
  file.close();
  if (!file) return failure("writing '" + path + "' failed");
  return Ok{};
}

void printSummary(std::ostream& out, const SavedRun& saved, const std::string& path) {
  const Run& r = saved.run;
  const KernelLaunch& L = r.plan.launch;
  out << path << ": tilescope trace file, format " << saved.formatVersion << ", written by tilescope "
      << saved.toolVersion << "\n";
  out << describe(r.config) << ", seed " << r.config.seed << ", on " << r.backend << " (" << r.device << ")\n";
  out << "grid " << L.gridX << "x" << L.gridY << " blocks of " << L.blockX << "x" << L.blockY << " threads";
  if (r.plan.phases > 0) out << ", " << r.plan.phases << " phase" << (r.plan.phases == 1 ? "" : "s");
  char secs[64];
  std::snprintf(secs, sizeof secs, ", %.3f s", r.seconds);
  out << secs << "\n";
  out << r.verification.summary() << "\n";
  out << (r.trace ? std::to_string(r.trace->events.size()) + " events traced" : std::string("no trace")) << "\n";
  if (r.outcome.outOfBoundsTotal > 0)
    out << "accesses outside an allocation (caught by the emulator): " << r.outcome.outOfBoundsTotal << "\n";
  for (const auto& d : r.outcome.divergences)
    out << "barrier divergence in block (" << d.block.x << "," << d.block.y << ") at line " << d.line << "\n";
  out << describeEvidence(examineRun(r));
}

void writeSummaryJson(std::ostream& out, const SavedRun& saved) {
  const Run& r = saved.run;
  const BugEvidence ev = examineRun(r);
  JsonWriter json(out);
  json.beginObject()
      .field("format", saved.formatVersion)
      .field("tool_version", saved.toolVersion)
      .field("kernel", kernelInfo(r.config.kernel).name)
      .field("run", describe(r.config))
      .field("seed", r.config.seed)
      .field("backend", r.backend)
      .field("device", r.device)
      .field("seconds", r.seconds)
      .field("verified", r.verification.passed)
      .field("wrong_cells", uint64_t(ev.wrongCells.size()))
      .field("events", uint64_t(r.trace ? r.trace->events.size() : 0))
      .field("out_of_bounds", uint64_t(ev.outOfBounds.size()))
      .field("stale_reads", uint64_t(ev.staleReads.size()))
      .field("max_barriers_per_thread", ev.maxBarriersPerThread)
      .field("barrier_divergences", uint64_t(r.outcome.divergences.size()))
      .endObject();
  out << "\n";
}

}  // namespace

int bugsCommand(const Options& o, std::ostream& out) {
  auto flags = commandFlags(o, {"--show"}, {"--fixed"});
  if (!flags) return reportError(flags.error());
  if (!flags->count("--show")) {
    if (flags->count("--fixed")) return reportError(invalidInput("--fixed goes with --show ID"));
    if (o.json) {
      JsonWriter json(out);
      json.beginArray();
      for (const Bug& b : bugGallery())
        json.beginObject()
            .field("id", b.id)
            .field("title", b.title)
            .field("origin", b.origin)
            .field("buggy", b.buggyKernel)
            .field("fixed", b.fixedKernel)
            .field("symptom", symptomName(b.symptom))
            .field("explanation", b.explanation)
            .field("look_for", b.lookFor)
            .endObject();
      json.endArray();
      out << "\n";
      return kExitOk;
    }
    for (const Bug& b : bugGallery()) {
      char line[256];
      std::snprintf(line, sizeof line, "%-15s %-48s %s -> %s\n", std::string(b.id).c_str(),
                    std::string(b.title).c_str(), std::string(b.buggyKernel).c_str(),
                    std::string(b.fixedKernel).c_str());
      out << line;
    }
    out << "show one: tilescope-cli bugs --show ID [--fixed]\n";
    return kExitOk;
  }
  const std::string& id = flags->at("--show");
  const Bug* bug = findBug(id);
  if (!bug) return reportError(invalidInput("no bug '" + id + "' in the gallery: see tilescope-cli bugs"));
  const bool fixed = flags->count("--fixed") > 0;
  auto config = bugConfig(*bug, fixed, o.config.seed);
  if (!config) return reportError(config.error());
  auto finished = finishedRun(o, *config, Tracing::On);
  if (!finished) return reportError(finished.error());
  const BugEvidence ev = (*finished)->gallery ? (*finished)->gallery->evidence : examineRun((*finished)->run);
  const bool asExpected = fixed ? isClean(ev) : showsSymptom(bug->symptom, ev);
  if (o.json) {
    JsonWriter json(out);
    json.beginObject()
        .field("id", bug->id)
        .field("kernel", fixed ? bug->fixedKernel : bug->buggyKernel)
        .field("run", describe(*config))
        .field("symptom", symptomName(bug->symptom))
        .field("as_expected", asExpected)
        .field("verified", ev.verified)
        .field("wrong_cells", uint64_t(ev.wrongCells.size()))
        .field("out_of_bounds", uint64_t(ev.outOfBounds.size()))
        .field("stale_reads", uint64_t(ev.staleReads.size()))
        .field("max_barriers_per_thread", ev.maxBarriersPerThread)
        .field("max_stores_per_thread", ev.maxStoresPerThread)
        .field("phases", ev.phases)
        .endObject();
    out << "\n";
  } else {
    out << bug->title << " [" << bug->id << "]\n";
    out << "from: " << bug->origin << "\n\n" << bug->explanation << "\n\n";
    out << (fixed ? "fixed: " : "buggy: ") << describe(*config) << " on " << (*finished)->run.backend << "\n";
    out << describeEvidence(ev);
    out << (fixed ? (asExpected ? "the fix removes the symptom\n" : "UNEXPECTED: the fixed kernel is not clean\n")
                  : (asExpected ? "symptom shown: " + std::string(symptomName(bug->symptom)) + "; look for: " +
                                      std::string(bug->lookFor) + "\n"
                                : "UNEXPECTED: the symptom did not appear\n"));
    if (!fixed) out << "the fix: tilescope-cli bugs --show " << bug->id << " --fixed\n";
  }
  return asExpected ? kExitOk : kExitVerifyFailed;
}

int saveCommand(const Options& o, std::ostream& out) {
  auto flags = commandFlags(o, {"--file", "--chrome"}, {});
  if (!flags) return reportError(flags.error());
  if (!flags->count("--file")) return reportError(invalidInput("save needs --file FILE (e.g. run.tstrace)"));
  auto finished = finishedRun(o, o.config, Tracing::On);
  if (!finished) return reportError(finished.error());
  const Run* run = &(*finished)->run;
  const std::string& path = flags->at("--file");
  if (auto s = saveRun(*run, path); !s) return reportError(s.error());
  if (flags->count("--chrome"))
    if (auto s = exportChrome(*run, flags->at("--chrome")); !s) return reportError(s.error());
  if (o.json) {
    JsonWriter json(out);
    json.beginObject().field("saved", path).field("run", describe(run->config));
    json.field("events", uint64_t(run->trace->events.size())).field("backend", run->backend);
    json.field("device", run->device).field("verified", run->verification.passed).endObject();
    out << "\n";
    return kExitOk;
  }
  out << "saved " << describe(run->config) << " (" << run->trace->events.size() << " events, " << run->backend
      << ") to " << path << "\n"
      << run->verification.summary() << "\n";
  return kExitOk;  // a failing kernel is still a trace worth keeping
}

int openCommand(const Options& o, std::ostream& out) {
  auto flags = commandFlags(o, {"--file", "--chrome"}, {});
  if (!flags) return reportError(flags.error());
  if (!flags->count("--file")) return reportError(invalidInput("open needs --file FILE"));
  const std::string& path = flags->at("--file");
  auto saved = loadRun(path);
  if (!saved) return reportError(saved.error());
  if (flags->count("--chrome"))
    if (auto s = exportChrome(saved->run, flags->at("--chrome")); !s) return reportError(s.error());
  if (o.json) writeSummaryJson(out, *saved);
  else printSummary(out, *saved, path);
  return kExitOk;
}

int lessonsCommand(const Options& o, std::ostream& out) {
  auto flags = commandFlags(o, {"--show", "--script", "--dir"}, {});
  if (!flags) return reportError(flags.error());
  auto dir = flags->count("--dir") ? Result<std::string>(flags->at("--dir")) : defaultLessonDirectory();
  if (!dir) return reportError(dir.error());
  auto lessons = loadLessonDirectory(*dir);
  if (!lessons) return reportError(lessons.error());
  const bool show = flags->count("--show") > 0, script = flags->count("--script") > 0;
  if (show && script) return reportError(invalidInput("give --show NAME or --script NAME, not both"));
  if (o.json && script) return reportError(invalidInput("--script writes a script, not JSON: drop --json"));
  if (!show && !script && o.json) {
    JsonWriter json(out);
    json.beginArray();
    for (std::size_t i = 0; i < lessons->size(); ++i) {
      const Lesson& l = (*lessons)[i];
      json.beginObject().field("number", uint64_t(i + 1)).field("name", l.name).field("title", l.title);
      json.field("pages", uint64_t(l.pages.size())).field("file", l.file).endObject();
    }
    json.endArray();
    out << "\n";
    return kExitOk;
  }
  if (!show && !script) {
    for (std::size_t i = 0; i < lessons->size(); ++i) {
      const Lesson& l = (*lessons)[i];
      char line[256];
      std::snprintf(line, sizeof line, "%2zu  %-22s %s (%zu pages)\n", i + 1, l.name.c_str(), l.title.c_str(),
                    l.pages.size());
      out << line;
    }
    out << "open one in the app: tilescope --lesson NAME; read one here: tilescope-cli lessons --show NAME\n";
    return kExitOk;
  }
  const std::string key = show ? flags->at("--show") : flags->at("--script");
  const Lesson* lesson = findLesson(*lessons, key);
  if (!lesson) return reportError(invalidInput("no lesson '" + key + "' in " + *dir + ": see tilescope-cli lessons"));
  if (script) {
    // The whole lesson as one script-mode file: each page's commands, then a wait for its
    // run and a rendered frame, as the app's Next button would do it.
    out << "# " << lesson->title << " (" << lesson->file << ")\n";
    for (const LessonPage& page : lesson->pages) {
      out << "# page: " << page.title << "\n";
      for (const std::string& line : pageScript(page)) out << line << "\n";
      out << "wait\nframes 1\n";
    }
    out << "quit\n";
    return kExitOk;
  }
  if (o.json) {
    JsonWriter json(out);
    json.beginObject().field("name", lesson->name).field("title", lesson->title).key("pages").beginArray();
    for (const LessonPage& page : lesson->pages) {
      json.beginObject().field("title", page.title).field("launch", describe(page.config)).key("text").beginArray();
      for (const std::string& p : page.paragraphs) json.value(p);
      json.endArray().endObject();
    }
    json.endArray().endObject();
    out << "\n";
    return kExitOk;
  }
  out << lesson->title << "\n";
  for (std::size_t i = 0; i < lesson->pages.size(); ++i) {
    const LessonPage& page = lesson->pages[i];
    out << "\n[" << i + 1 << "/" << lesson->pages.size() << "] " << page.title << "  (" << describe(page.config)
        << ")\n";
    for (const std::string& p : page.paragraphs) out << "  " << p << "\n";
  }
  return kExitOk;
}

}  // namespace tilescope::cli
