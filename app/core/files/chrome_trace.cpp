#include "core/files/chrome_trace.h"

#include <algorithm>
#include <map>
#include <vector>

#include "core/json_writer.h"
#include "kernels/ceil_div.h"

namespace tilescope {

namespace {


// What a slice did: its events and their kinds.
struct SliceCounts {
  uint64_t events = 0;
  uint64_t loads = 0, reads = 0, stores = 0, outOfBounds = 0, zeroFills = 0;
  uint64_t copies = 0, mbarrierSteps = 0;  // rung 8: tensor-map copies issued, mbarrier steps
};

// One barrier interval of one warp.
struct WarpInterval {
  bool used = false;
  int phase = 0;
  uint64_t first = 0, last = 0;  // logical positions of its first and last event
  SliceCounts n;
  // A ring (kernels/trace/step_rules.h: each k tile a phase, per thread, no barrier between
  // them): the interval's events by phase, so that its slices can show the phases.
  std::map<int, SliceCounts> byPhase;
  bool closed = false;           // ends at a barrier
  int barrierLine = 0;
  uint64_t barrierPos = 0;       // logical position of the warp's last arrival
  uint64_t barrierClock = 0;     // latest clock64 of the warp's arrivals
};

void countSliceEvent(SliceCounts& n, const Event& e) {
  ++n.events;
  switch (e.op) {
    case Op::LoadM:
    case Op::LoadN:
      if (zeroFilled(e)) ++n.zeroFills;
      else ++n.loads;
      break;
    case Op::ReadM:
    case Op::ReadN: ++n.reads; break;
    case Op::StoreP: ++n.stores; break;
    case Op::CopyM:  // a tensor-map copy fills a tile without any thread loading it
    case Op::CopyN: ++n.copies; break;
    case Op::MbarrierInit:
    case Op::MbarrierArrive:
    case Op::MbarrierWait: ++n.mbarrierSteps; break;
    case Op::Barrier:
    case Op::LoadW:  // the workspace (rung 9's fix-up): neither loads of M or N nor stores of P
    case Op::StoreW:
    case Op::MmaA:  // a lane's tensor-core fragments: registers, counted as the MMA's reads were
    case Op::MmaB:
    case Op::MmaC:
    case Op::None: break;
  }
  const bool touchesAnElement = e.op == Op::LoadM || e.op == Op::LoadN || e.op == Op::ReadM ||
                                e.op == Op::ReadN || e.op == Op::StoreP;
  if (touchesAnElement && !inBounds(e) && !zeroFilled(e)) ++n.outOfBounds;
}

void addEvent(WarpInterval& w, const Event& e, uint64_t pos, bool ring) {
  if (!w.used) {
    w.used = true;
    w.first = pos;
    w.phase = e.phase;
  }
  w.last = pos;
  countSliceEvent(w.n, e);
  if (ring) countSliceEvent(w.byPhase[e.phase], e);
  if (e.op == Op::Barrier) {
    w.closed = true;
    w.barrierLine = e.line;
    w.barrierPos = std::max(w.barrierPos, pos);
    w.barrierClock = std::max(w.barrierClock, barrierClock(e));
  }
}

std::string sliceName(const SliceCounts& w, int phase, int phases) {
  std::string what = w.reads ? "k loop"
                     : w.loads || w.zeroFills ? "load tiles"
                     : w.copies             ? "issue tile copies"
                     : w.stores             ? "store P"
                                            : "wait";
  if (w.loads && w.reads) what = "load + k loop";
  return phases > 0 ? "phase " + std::to_string(phase) + ": " + what : what;
}

void writeMetadata(JsonWriter& json, const char* name, int pid, int tid, const std::string& value, int sort) {
  json.beginObject().field("name", name).field("ph", "M").field("pid", pid);
  if (tid >= 0) json.field("tid", tid);
  json.key("args").beginObject().field("name", value).endObject().endObject();
  json.beginObject()
      .field("name", tid >= 0 ? "thread_sort_index" : "process_sort_index")
      .field("ph", "M")
      .field("pid", pid);
  if (tid >= 0) json.field("tid", tid);
  json.key("args").beginObject().field("sort_index", sort).endObject().endObject();
}

}  // namespace

std::string_view chromeTimebaseName(ChromeTimebase t) { return t == ChromeTimebase::GpuClock ? "gpu-clock" : "logical"; }

ChromeTimebase defaultChromeTimebase(const Run& run) {
  if (run.backend != "cuda" || !run.trace) return ChromeTimebase::Logical;
  for (const Event& e : run.trace->events)
    if (e.op == Op::Barrier && barrierClock(e) != 0) return ChromeTimebase::GpuClock;
  return ChromeTimebase::Logical;
}

namespace {

void writeHeader(JsonWriter& json, const Run& run, ChromeTimebase timebase) {
  const bool clocks = timebase == ChromeTimebase::GpuClock;
  json.field("displayTimeUnit", "ns");
  json.key("otherData").beginObject();
  json.field("tool", "tilescope");
  json.field("run", describe(run.config));
  json.field("backend", run.backend);
  json.field("device", run.device);
  json.field("timebase", chromeTimebaseName(timebase));
  json.field("time_unit", clocks ? "1 us = 1 GPU clock cycle, each block from its first barrier arrival"
                                 : "1 us = 1 trace event in canonical (emulator execution) order");
  json.endObject();
}

// The events [begin, end) of one block as each warp's intervals between barriers.
void groupIntervals(const Trace& t, std::size_t begin, std::size_t end, bool ring,
                    std::vector<std::vector<WarpInterval>>& perWarp) {
  const auto& ev = t.events;
  const KernelLaunch& L = t.launch;
  const int threadsPerBlock = int(L.blockX * L.blockY);
  std::vector<int> intervalOf(static_cast<std::size_t>(threadsPerBlock), 0);
  for (auto& w : perWarp) w.clear();
  for (std::size_t i = begin; i < end; ++i) {
    const Event& e = ev[i];
    const int thread = linearThread(e, L.blockX);
    if (thread < 0 || thread >= threadsPerBlock) continue;
    auto& intervals = perWarp[std::size_t(thread / kWarpSize)];
    const int interval = intervalOf[std::size_t(thread)];
    if (intervals.size() <= std::size_t(interval)) intervals.resize(std::size_t(interval) + 1);
    addEvent(intervals[std::size_t(interval)], e, i - begin, ring);
    if (e.op == Op::Barrier) ++intervalOf[std::size_t(thread)];
  }
}

struct SliceClock {
  bool clocks = false;
  uint64_t base = 0;  // the block's first barrier arrival
};

struct SliceAt {
  uint64_t ts = 0, dur = 0;
  int64_t interval = 0;
  int phase = 0;
};

void writeSlice(JsonWriter& json, const SliceCounts& n, SliceAt at, int pid, int warp, int phases) {
  json.beginObject()
      .field("name", sliceName(n, at.phase, phases))
      .field("cat", "interval")
      .field("ph", "X")
      .field("pid", pid)
      .field("tid", warp)
      .field("ts", at.ts)
      .field("dur", at.dur);
  json.key("args")
      .beginObject()
      .field("interval", at.interval)
      .field("phase", at.phase)
      .field("global_loads", n.loads)
      .field("zero_fills", n.zeroFills)
      .field("shared_reads", n.reads)
      .field("stores", n.stores)
      .field("tile_copies", n.copies)
      .field("mbarrier_steps", n.mbarrierSteps)
      .field("out_of_bounds", n.outOfBounds)
      .endObject();
  json.endObject();
}

// A ring's interval as one slice per phase, in phase order, sharing the interval's span by
// their events: the trace's canonical order runs each thread through all its phases before the
// next thread, so the phases of a warp alternate event by event and are regrouped here (a
// phase's slice is as long as its events). With clocks nothing times a phase: its share of the
// interval's span is its share of the events.
void writeRingSlices(JsonWriter& json, const WarpInterval& iv, SliceAt whole, int pid, int warp, int phases) {
  uint64_t before = 0;
  const uint64_t events = std::max<uint64_t>(iv.n.events, 1);
  for (auto it = iv.byPhase.begin(); it != iv.byPhase.end(); ++it) {
    const uint64_t from = whole.dur * before / events;
    before += it->second.events;
    const uint64_t to = std::next(it) == iv.byPhase.end() ? whole.dur : whole.dur * before / events;
    writeSlice(json, it->second, {whole.ts + from, to - from, whole.interval, it->first}, pid, warp, phases);
  }
}

// One warp's intervals as slices, each closed one with its barrier as an instant.
void writeWarpSlices(JsonWriter& json, const std::vector<WarpInterval>& intervals, int pid, int warp, int phases,
                     SliceClock clock) {
  uint64_t previousEnd = 0;
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    const WarpInterval& iv = intervals[i];
    if (!iv.used) continue;
    // Logical: the interval spans its events. Clocks: from the previous barrier (or the
    // block's first arrival) to this one; an interval after the last barrier is drawn as a
    // 1-cycle slice, since nothing timed its end.
    uint64_t ts = iv.first, endTs = iv.last + 1;
    if (clock.clocks) {
      ts = i == 0 ? 0 : previousEnd;
      endTs = iv.closed ? iv.barrierClock - clock.base : ts + 1;
      if (endTs < ts) endTs = ts;
      previousEnd = endTs;
    }
    const SliceAt whole{ts, endTs - ts, int64_t(i), iv.phase};
    if (iv.byPhase.size() > 1) writeRingSlices(json, iv, whole, pid, warp, phases);
    else writeSlice(json, iv.n, whole, pid, warp, phases);
    if (!iv.closed) continue;
    json.beginObject()
        .field("name", "barrier (line " + std::to_string(iv.barrierLine) + ")")
        .field("cat", "barrier")
        .field("ph", "i")
        .field("s", "t")
        .field("pid", pid)
        .field("tid", warp)
        .field("ts", clock.clocks ? iv.barrierClock - clock.base : iv.barrierPos);
    json.key("args").beginObject().field("interval", int64_t(i)).field("phase", iv.phase).endObject();
    json.endObject();
  }
}

}  // namespace

void writeChromeTrace(std::ostream& out, const Run& run, ChromeTimebase timebase) {
  JsonWriter json(out);
  const Trace& t = *run.trace;
  const KernelLaunch& L = t.launch;
  const int threadsPerBlock = int(L.blockX * L.blockY);
  const int warps = ceilDiv(threadsPerBlock, kWarpSize);
  const bool clocks = timebase == ChromeTimebase::GpuClock;

  json.beginObject();
  writeHeader(json, run, timebase);
  json.key("traceEvents").beginArray();
  std::vector<std::vector<WarpInterval>> perWarp(static_cast<std::size_t>(warps));
  const auto& ev = t.events;
  // A ring's threads enter their phases at mbarrier waits (step_rules.h): its slices show them.
  const bool ring = std::any_of(ev.begin(), ev.end(), [](const Event& e) { return e.op == Op::MbarrierWait; });
  for (std::size_t begin = 0, end = 0; begin < ev.size(); begin = end) {
    while (end < ev.size() && ev[end].blockX == ev[begin].blockX && ev[end].blockY == ev[begin].blockY) ++end;
    const int bx = ev[begin].blockX, by = ev[begin].blockY;
    const int pid = by * int(L.gridX) + bx;
    groupIntervals(t, begin, end, ring, perWarp);
    SliceClock clock{clocks, UINT64_MAX};
    for (std::size_t i = begin; clocks && i < end; ++i)
      if (ev[i].op == Op::Barrier) clock.base = std::min(clock.base, barrierClock(ev[i]));
    if (clock.base == UINT64_MAX) clock.base = 0;

    writeMetadata(json, "process_name", pid, -1, "block (" + std::to_string(bx) + "," + std::to_string(by) + ")",
                  pid);
    for (int w = 0; w < warps; ++w) {
      if (perWarp[std::size_t(w)].empty()) continue;
      const int lastThread = std::min(threadsPerBlock, (w + 1) * kWarpSize) - 1;
      writeMetadata(json, "thread_name", pid, w,
                    "warp " + std::to_string(w) + " (threads " + std::to_string(w * kWarpSize) + "-" +
                        std::to_string(lastThread) + ")",
                    w);
      writeWarpSlices(json, perWarp[std::size_t(w)], pid, w, t.phases, clock);
    }
  }
  json.endArray();
  json.endObject();
}

}  // namespace tilescope
