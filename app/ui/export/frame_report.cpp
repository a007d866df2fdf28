#include "ui/export/frame_report.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "core/analysis/analysis.h"
#include "core/json_writer.h"
#include "ui/script/lab_script.h"
#include "ui/panels/plot_widget.h"
#include "ui/workers/replay.h"
#include "ui/model/analysis_profile.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t i = std::min(v.size() - 1, std::size_t(q * double(v.size() - 1) + 0.5));
  return v[i];
}

// A grid's marks: {row, col, kind, reader, writer, line, value, expected}, the fields that
// apply only.
void writeMarks(JsonWriter& j, const std::vector<CellMark>& marks, const std::string& grid) {
  j.key("marks").beginArray();
  for (const CellMark& m : marks) {
    if (m.grid != grid) continue;
    j.beginObject().field("row", m.row).field("col", m.col).field("kind", std::string(markKindName(m.kind)));
    if (m.readerX >= 0) j.key("reader").beginArray().value(m.readerX).value(m.readerY).endArray();
    if (m.writerX >= 0) j.key("writer").beginArray().value(m.writerX).value(m.writerY).endArray();
    if (m.kind == CellMark::Kind::Stale) j.field("overwritten", m.overwritten);
    if (m.line >= 0) j.field("line", m.line);
    if (m.value) j.field("value", double(*m.value));
    if (m.expected) j.field("expected", double(*m.expected));
    j.endObject();
  }
  j.endArray();
}

void writeWarpRequests(JsonWriter& j, const std::vector<RequestPicture>& requests) {
  j.key("warpRequests").beginArray();
  for (const RequestPicture& r : requests) {
    const bool global = r.space == MemorySpace::Global;
    j.beginObject().field("space", std::string(global ? "global" : "shared")).field("array", r.array);
    j.field("warp", r.warp).field("line", r.line).field("phase", r.phase).field("k", r.k);
    j.key("lanes").beginArray();
    for (int l : r.lanes) j.value(l);
    j.endArray().key("addresses").beginArray();
    for (uint64_t a : r.addresses) j.value(a);
    j.endArray();
    if (global) {
      j.key("sectors").beginArray();
      for (uint64_t s : r.sectors) j.value(s);
      j.endArray().key("lines").beginArray();
      for (uint64_t l : r.lines) j.value(l);
      j.endArray().field("bytesUsed", r.bytesUsed).field("bytesMoved", r.bytesMoved);
    } else {
      j.key("banks").beginArray();
      for (int b : r.banks) j.value(b);
      j.endArray().field("wavefronts", r.wavefronts);
    }
    j.endObject();
  }
  j.endArray();
}

// The Tensor core panel's MMA as drawn: the lane holding each element of A, B and the sums.
void writeTensorCore(JsonWriter& j, const TensorCoreRect& t) {
  j.key("tensorCore").beginObject().field("warp", t.warp).field("lane", t.lane).field("step", t.step);
  j.field("mmas", t.mmas);
  for (const auto& [name, owner] : {std::pair{"ownerA", &t.ownerA}, {"ownerB", &t.ownerB}, {"ownerC", &t.ownerC}}) {
    j.key(name).beginArray();
    for (int lane : *owner) j.value(lane);
    j.endArray();
  }
  for (const auto& [name, box] : {std::pair{"a", &t.a}, {"b", &t.b}, {"c", &t.c}}) {
    j.key(name).beginArray();
    for (float v : *box) j.value(double(v));
    j.endArray();
  }
  j.endObject();
}

// The Copy engine panel's ring as drawn (copy_ring.h): per stage its state, tiles, issuer and
// bytes, with the boxes of M's and N's tile; every mbarrier; the consumers waiting.
void writeCopyEngine(JsonWriter& j, const CopyEngineRect& c) {
  const CopyRing& r = c.ring;
  auto box = [&](const char* name, const std::array<float, 4>& b) {
    j.key(name).beginArray();
    for (float v : b) j.value(double(v));
    j.endArray();
  };
  j.key("copyEngine").beginObject().field("x", double(c.x)).field("y", double(c.y));
  j.field("width", double(c.width)).field("height", double(c.height)).field("stageCount", r.stageCount);
  j.field("consumers", r.consumers).field("copiesIssued", r.copiesIssued).field("copiesTotal", r.copiesTotal);
  j.field("nByThreads", r.nByThreads);
  j.key("stages").beginArray();
  for (std::size_t i = 0; i < r.stages.size(); ++i) {
    const RingStage& s = r.stages[i];
    j.beginObject().field("index", s.index).field("state", std::string(stageStateName(s.state)));
    j.field("mTile", s.m.tile).field("nTile", s.n.tile);
    j.key("issuer").beginArray().value(s.m.issuerX).value(s.m.issuerY).endArray();
    j.field("bytes", s.bytesExpected).field("bytesArrived", s.bytesArrived).field("mBytes", s.m.bytes);
    j.field("nBytes", s.n.bytes).field("nBytesWritten", s.n.bytesWritten).field("readers", s.readers);
    j.field("released", s.released);
    if (i < c.mBoxes.size()) box("mBox", c.mBoxes[i]);
    if (i < c.nBoxes.size()) box("nBox", c.nBoxes[i]);
    j.endObject();
  }
  j.endArray().key("barriers").beginArray();
  for (const RingBarrier& b : r.barriers)
    j.beginObject().field("name", b.name()).field("initialised", b.initialised).field("completed", b.completed)
        .field("arrivals", b.arrivals).field("needed", b.needed).field("bytesExpected", b.bytesExpected)
        .field("bytesArrived", b.bytesArrived).field("text", b.text()).endObject();
  j.endArray().field("waiting", r.waiting).field("passed", r.passed).field("waitBarrier", r.waitBarrier);
  j.field("waitParity", r.waitParity).field("waitText", r.waitText()).field("producer", r.producer);
  j.field("outOfOrder", r.outOfOrder).endObject();
}

}  // namespace

std::string frameReport(const FrameStats& stats, const AppState& state) {
  const auto& f = stats.frameSeconds;
  char text[512];
  std::snprintf(text, sizeof text,
                "frames %zu: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms", f.size(),
                percentile(f, 0.5) * 1e3, percentile(f, 0.9) * 1e3, percentile(f, 0.99) * 1e3,
                f.empty() ? 0.0 : *std::max_element(f.begin(), f.end()) * 1e3);
  std::string out = text;
  if (const LoadedRun* run = shownRun(state)) out += " [" + describe(run->run.config) + "]";
  if (const auto& a = stats.appSeconds; !a.empty()) {
    std::snprintf(text, sizeof text,
                  "\napp work per frame (start to draw lists handed over, without rasterising): median %.2f ms, "
                  "p95 %.2f ms, p99 %.2f ms, max %.2f ms (whole frame p95 %.2f ms)",
                  percentile(a, 0.5) * 1e3, percentile(a, 0.95) * 1e3, percentile(a, 0.99) * 1e3,
                  *std::max_element(a.begin(), a.end()) * 1e3, percentile(f, 0.95) * 1e3);
    out += text;
  }
  if (const auto& a = stats.appCpuSeconds; !a.empty()) {
    std::snprintf(text, sizeof text, "\napp work per frame in the frame loop's CPU time: median %.2f ms, p95 %.2f ms, max %.2f ms",
                  percentile(a, 0.5) * 1e3, percentile(a, 0.95) * 1e3, *std::max_element(a.begin(), a.end()) * 1e3);
    out += text;
  }
  const auto& l = state.pictureLatencies;
  if (!l.empty()) {
    std::snprintf(text, sizeof text, "\nrequest to new picture: %zu changes, median %.1f ms, max %.1f ms", l.size(),
                  percentile(l, 0.5) * 1e3, *std::max_element(l.begin(), l.end()) * 1e3);
    out += text;
    out += " (each:";
    for (double x : l) {
      std::snprintf(text, sizeof text, " %.0f", x * 1e3);
      out += text;
    }
    out += ")";
  }
  return out;
}

namespace {

void writeThemeJson(JsonWriter& j, const AppState& state) {
  const Theme& t = state.theme;
  j.key("theme").beginObject();
  j.field("highlight", hexColour(t.highlight)).field("pStored", hexColour(t.pStored));
  j.field("pPending", hexColour(t.pPending)).field("cellIdle", hexColour(t.cellIdle));
  j.field("error", hexColour(t.error)).field("zeroFilled", hexColour(t.zeroFilled));
  j.field("text", hexColour(t.panelText)).field("background", hexColour(t.background));
  j.key("threads").beginArray();
  for (Rgba c : t.threadColours) j.value(hexColour(c));
  j.endArray();
  j.endObject();
  j.field("presentation", state.view.presentation).field("fontScale", double(state.view.fontScale));
  j.key("fonts").beginObject().field("sans", state.fonts.sans).field("mono", state.fonts.mono).endObject();
  // Where the Timing panel's recorded results came from (or why there are none).
  j.key("recordedTimings").beginObject().field("path", state.timing.recordedPath);
  j.field("error", state.timing.recordedError).endObject();
}

// The grids with their marks and texts, the warp requests, the copy engine, the tables, the counters.
void writeGridsJson(JsonWriter& j, const FrameLayout& layout) {
  j.key("grids").beginArray();
  for (const GridRect& g : layout.grids) {
    j.beginObject().field("name", g.name).field("x", double(g.x)).field("y", double(g.y));
    j.field("width", double(g.width)).field("height", double(g.height)).field("rows", g.rows).field("cols", g.cols);
    j.field("cellWidth", double(g.cellWidth)).field("cellHeight", double(g.cellHeight));
    j.field("outlinePx", double(g.outlinePx)).field("highlightPx", double(g.highlightPx));
    writeMarks(j, layout.marks, g.name);
    j.key("texts").beginArray();
    for (const GridRect::CellText& t : g.texts) j.beginArray().value(t.row).value(t.col).value(t.text).endArray();
    j.endArray().endObject();
  }
  j.endArray();
  writeWarpRequests(j, layout.warpRequests);
  if (layout.copyEngine) writeCopyEngine(j, *layout.copyEngine);
  if (layout.tensorCore) writeTensorCore(j, *layout.tensorCore);
  j.key("tables").beginArray();
  for (const TableRect& t : layout.tables) {
    j.beginObject().field("name", t.name).key("columns").beginArray();
    for (std::size_t i = 0; i < t.right.size(); ++i)
      j.beginObject().field("contentRight", double(t.contentRight[i])).field("right", double(t.right[i])).endObject();
    j.endArray().endObject();
  }
  j.endArray();
  j.key("counters").beginArray();
  for (const CounterText& c : layout.counters)
    j.beginObject().field("name", c.name).field("shown", c.shown).field("exact", c.exact).endObject();
  j.endArray();
}

void writeSourceJson(JsonWriter& j, const SourceRect& src) {
  j.key("source").beginObject().field("file", src.file).field("lines", src.lines);
  j.field("currentLine", src.currentLine).field("currentText", src.currentText);
  j.key("stepLines").beginArray();
  for (int line : src.stepLines) j.value(line);
  j.endArray();
  j.field("width", double(src.width)).field("widestLine", double(src.widestLine));
  j.field("firstLine", src.firstLine).field("fontPx", double(src.fontPx)).field("textHeight", double(src.textHeight));
  j.field("visibleHeight", double(src.visibleHeight));
  j.key("folded").beginArray();
  for (const auto& [first, last] : src.folded) j.beginArray().value(first).value(last).endArray();
  j.endArray().endObject();
}

// The classroom's view: the step in words, the followed thread, the shading, the granularity.
void writeClassroomJson(JsonWriter& j, const AppState& state, const FrameLayout& layout) {
  j.key("caption").beginObject().field("text", layout.caption).field("fontPx", double(layout.captionFontPx))
      .field("height", double(layout.captionHeight)).endObject();
  j.field("notice", layout.notice).field("keyHelp", layout.keyHelp).field("startHint", layout.startHint);
  j.key("gpuNotes").beginArray();
  for (const std::string& note : layout.gpuNotes) j.value(note);
  j.endArray();
  j.key("follow").beginArray().value(state.view.followX).value(state.view.followY).endArray();
  j.key("threadLife").beginArray();
  for (const LifeTokenRect& t : layout.life)
    j.beginObject().field("text", t.text).field("time", t.time).field("x", double(t.x)).field("y", double(t.y))
        .field("width", double(t.width)).field("height", double(t.height)).endObject();
  j.endArray();
  j.key("arrows").beginArray();
  for (const ArrowRect& a : layout.arrows) {
    j.beginObject().field("from", a.from).key("fromCell").beginArray().value(a.fromRow).value(a.fromCol).endArray();
    j.field("to", a.to).key("toCell").beginArray().value(a.toRow).value(a.toCol).endArray();
    j.field("x0", double(a.x0)).field("y0", double(a.y0)).field("x1", double(a.x1)).field("y1", double(a.y1)).endObject();
  }
  j.endArray();
  j.field("loadShading", loadShadingOn(state)).field("granularity", std::string(granularityName(state.playback.granularity)));
  j.field("profile", analysisProfile(state.analysis).profile.name);  // the device Roofline and Occupancy describe
  j.key("selectedBlock").beginArray().value(state.shown.bx).value(state.shown.by).endArray();
  j.field("exported", state.view.exported);
}

// Every window with its tabs, and every recorded text: where, how large, its colours.
void writeWindowsJson(JsonWriter& j, const FrameLayout& layout) {
  j.key("windows").beginArray();
  for (const WindowRect& w : layout.windows) {
    j.beginObject().field("name", w.name).field("x", double(w.x)).field("y", double(w.y))
        .field("width", double(w.width)).field("height", double(w.height)).field("tab", w.tab)
        .field("contentWidth", double(w.contentWidth)).field("contentHeight", double(w.contentHeight))
        .field("innerWidth", double(w.innerWidth)).field("innerHeight", double(w.innerHeight));
    j.key("tabs").beginArray();
    for (const WindowRect::Tab& t : w.tabs)
      j.beginObject().field("label", t.label).field("width", double(t.width)).field("needed", double(t.needed)).endObject();
    j.endArray().key("behindMore").beginArray();
    for (const std::string& name : w.behindMore) j.value(name);
    j.endArray().endObject();
  }
  j.endArray();
  j.key("texts").beginArray();
  for (const TextRecord& t : layout.texts)
    j.beginObject().field("panel", t.panel).field("text", t.text).field("x", double(t.x)).field("y", double(t.y))
        .field("pitch", double(t.pitch)).field("colour", hexColour(t.colour)).field("background", hexColour(t.background))
        .endObject();
  j.endArray();
}

// The guided lesson on screen: its page, the paragraphs as drawn, the figures the text names.
void writeLessonJson(JsonWriter& j, const AppState& state, const FrameLayout& layout) {
  const Lesson* lesson = state.lesson.lesson();
  if (!lesson) return;
  j.key("lesson").beginObject().field("name", lesson->name).field("title", lesson->title);
  j.field("page", state.lesson.page).field("pages", int(lesson->pages.size()));
  j.field("pageTitle", lesson->pages[std::size_t(state.lesson.page)].title);
  j.field("presenter", state.lesson.presenter).field("error", state.lesson.error);
  j.key("paragraphs").beginArray();  // as drawn, the run's figures filled in
  for (const std::string& p : layout.lessonText) j.value(p);
  j.endArray().key("constants").beginArray();  // the page's declared constants
  const LessonPage& page = lesson->pages[std::size_t(state.lesson.page)];
  for (const std::string& c : page.constants) j.value(c);
  j.endArray().key("figures").beginObject();  // the run's figures the text names, from its analysis
  const LoadedRun* run = shownRun(state);
  if (run && state.shown.analysis) {
    const LessonValues values = lessonValues(*state.shown.analysis, run->run.config);
    for (const std::string& p : page.paragraphs)
      for (const std::string& name : figureNames(p))
        if (const auto it = values.find(name); it != values.end()) j.field(name, it->second);
  }
  j.endObject().endObject();
}

// The run on screen: the cursor, the launch, where it came from.
void writeRunJson(JsonWriter& j, const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return;
  const Cursor c = state.shown.cursor;
  j.key("cursor").beginObject().field("step", c.step).field("threads", c.threads);
  j.field("label", run->timeline.stepLabel(run->timeline.normalize(c).step)).endObject();
  j.field("config", describe(run->run.config)).field("backend", run->run.backend).field("device", run->run.device);
  if (const auto& r = run->replay) {  // the run on screen came from a trace file
    j.key("replay").beginObject().field("file", r->file).field("device", run->run.device);
    j.field("backend", run->run.backend).field("toolVersion", r->toolVersion).field("savedAt", r->savedAt);
    j.field("label", replayLabel(*r, run->run)).endObject();
  }
}

}  // namespace

Status writeLayout(const std::string& path, const AppState& state, const FrameLayout& layout, int width, int height) {
  std::ofstream out(path);
  if (!out) return failure("cannot write the layout file " + path);
  JsonWriter j(out);
  j.beginObject();
  j.field("width", width).field("height", height);
  writeThemeJson(j, state);
  writeGridsJson(j, layout);
  writeSourceJson(j, layout.source);
  writeClassroomJson(j, state, layout);
  writeWindowsJson(j, layout);
  j.key("plots");
  writePlotsJson(j, layout.plots);
  j.key("lab");
  writeLabJson(j, state.lab, layout.lab);
  writeLessonJson(j, state, layout);
  writeRunJson(j, state);
  j.endObject();
  out << "\n";
  return out ? Status(Ok{}) : Status(failure("cannot write the layout file " + path));
}

}  // namespace tilescope::ui
