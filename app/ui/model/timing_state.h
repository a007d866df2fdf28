// The timing panel's part of AppState and its intents. The panel reads TimingState and pushes
// a TimingIntent; applyIntents() hands those to applyTimingIntent(); syncTiming()
// (timing_worker.h) passes requests to the worker thread and copies its progress back, once
// per frame. Sweeps never run on the UI thread.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>

#include "core/timing/timing.h"
#include "ui/model/timing_model.h"

namespace tilescope::ui {

enum class TimingSource { Live, Recorded };  // which report the panel shows when both exist
// GFLOP/s against N, the lecture's table, or the ladder from fig. 5.9 to cuBLAS
enum class TimingPage { Plot, Table, Ladder };

struct TimingView {
  TimingPage page = TimingPage::Plot;
  TimingSource source = TimingSource::Live;
  SweepSpec sweep;                      // what "Run" starts
  std::map<std::string, bool> toggled;  // series label -> shown, where the user overrode shownByDefault()
  bool operator==(const TimingView&) const = default;
  bool seriesShown(const std::string& label) const {
    const auto it = toggled.find(label);
    return it != toggled.end() ? it->second : shownByDefault(label);
  }
};

struct TimingState {
  // Start-up, on the worker thread: can this machine time live, and the recorded results.
  bool probed = false;
  std::string liveUnavailable;  // why not ("" = a GPU is there)
  std::string device;           // the live device's name
  std::shared_ptr<const TimingDigest> recorded;  // the report and what the panel draws of it
  std::string recordedPath, recordedError;
  // The ladder's recorded results (assets/timings/ladder-h100.csv), which may be absent.
  std::shared_ptr<const TimingDigest> recordedLadder;
  std::string recordedLadderPath, recordedLadderError;

  // Live sweeps: every case timed this session, the newest result per case.
  std::shared_ptr<const TimingDigest> live;
  bool running = false;
  SweepProgress progress;
  std::string runningTitle;  // "live sweep", "lecture table", "custom sweep"
  double runningSeconds = 0.0;
  std::string lastSweep;  // how the last sweep ended: "live sweep: 25 cases in 3.8 s", "cancelled ...", an error

  // Requests, written by applyTimingIntent and taken by syncTiming.
  uint64_t sweepRequested = 0, sweepSubmitted = 0;
  SweepSpec requestedSweep;
  bool cancelRequested = false;

  TimingView view;

  // The report on screen: live when there is one and the view asks for it, else recorded.
  const TimingDigest* shown() const {
    if (live && (view.source == TimingSource::Live || !recorded)) return live.get();
    return recorded.get();
  }
  // The report the ladder page and the roofline's rungs come from: live as above, else the
  // recorded ladder, else the recorded results (whose tiled T = 32 and cuBLAS are rung 1).
  const TimingDigest* ladderShown() const {
    if (live && (view.source == TimingSource::Live || (!recorded && !recordedLadder))) return live.get();
    return recordedLadder ? recordedLadder.get() : recorded.get();
  }
};

// --- Intents -------------------------------------------------------------------------------
struct StartSweep {
  SweepSpec spec;
};  // replaces a running sweep
struct CancelSweep {};
struct SetTimingView {
  TimingView view;
};
struct TimingIntent {
  std::variant<StartSweep, CancelSweep, SetTimingView> what;
};

void applyTimingIntent(TimingState& state, const TimingIntent& intent);

}  // namespace tilescope::ui
