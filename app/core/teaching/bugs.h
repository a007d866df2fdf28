// The bug gallery as data: the mistakes found in the chapter's teaching material, each
// with a kernel that makes it, the kernel that fixes it, the launch that shows it and the
// symptom to look for. The app's gallery panel, `tilescope-cli bugs` and the tests all read
// this one table, and `examineRun` measures the symptom from a run, never from a model.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/bounds_report.h"
#include "core/run/launch_config.h"
#include "core/run/run.h"

namespace tilescope {

// What a class should see go wrong.
enum class Symptom : uint8_t {
  WrongCells,     // elements of P differ from the reference
  OutOfBounds,    // loads outside M or N (wrapped rows, reads past the end)
  ExtraBarriers,  // correct P, but more barriers per thread than the two per phase needed
  StaleReads,     // shared-memory reads that see a value from another phase
};
std::string_view symptomName(Symptom s);  // "wrong-cells", "out-of-bounds", ...

struct Bug {
  std::string_view id;           // "k-typo": what `tilescope-cli bugs --show` and lessons take
  std::string_view title;        // one line
  std::string_view origin;       // where the mistake appears in the material students read
  std::string_view explanation;  // what is wrong and why it shows the way it does
  std::string_view buggyKernel;  // catalog names (kernels/catalog.h)
  std::string_view fixedKernel;
  Dims dims;                     // the launch that shows it
  int tile = 2;                  // for tiled kernels
  int blockX = 16, blockY = 16;  // for kernels with a free block shape
  Symptom symptom;
  std::string_view lookFor;      // what to point at in the app
};

std::span<const Bug> bugGallery();
const Bug* findBug(std::string_view id);

// The gallery's launch for the buggy (fixed == false) or the fixed kernel, inputs from seed.
Result<LaunchConfig> bugConfig(const Bug& bug, bool fixed, uint64_t seed);

// Which gallery launch `config` is (any seed), if any: the app shows that entry's symptoms.
// Where two entries share a fixed launch, the first in gallery order is named.
struct GalleryLaunch {
  const Bug* bug = nullptr;
  bool fixed = false;
};
std::optional<GalleryLaunch> galleryLaunchOf(const LaunchConfig& config);

struct WrongCell {
  int row = 0, col = 0;
  double expected = 0.0;  // the double-precision reference
  float actual = 0.0f;
};

// A read of Mds or Nds whose value was not written in the reader's own phase: the slot
// was last written in an earlier phase (or never, in this launch: left over from before),
// or already overwritten by the next phase. Decided from the trace's canonical order,
// which is the order the threads really ran in on the emulator; a slot a tensor-map copy
// filled (rung 8's ring) is matched by phase instead, since no barrier orders the producer's
// copy before the consumers' reads in the trace.
struct StaleRead {
  Event read;                 // its value is what the thread really used
  int writtenInPhase = -1;    // phase of the last write before the read, -1 if none
  bool expectedKnown = false; // whether the reader's phase wrote that slot at all
  float expected = 0.0f;      // the value that phase wrote (what the read should have seen)
};

struct BugEvidence {
  bool verified = false;
  std::vector<WrongCell> wrongCells;             // in row-major order
  std::vector<BoundsViolation> outOfBounds;      // needs the trace
  std::vector<StaleRead> staleReads;             // needs the trace
  int phases = 0;
  unsigned maxBarriersPerThread = 0;             // needs the trace
  unsigned maxStoresPerThread = 0;
  uint64_t barrierArrivals = 0;
  bool ringWaits = false;                        // threads waited on mbarriers (rung 8's ring)
  bool traced = false;
};

// Measures every symptom of a run (the trace-based ones only when it was traced).
BugEvidence examineRun(const Run& run);

// Whether `evidence` shows `symptom`. A clean run shows none of them.
bool showsSymptom(Symptom symptom, const BugEvidence& evidence);
bool isClean(const BugEvidence& evidence);

// A few lines for the CLI and the panel: verification, wrong cells with expected and
// actual values, out-of-bounds loads, barrier counts, stale reads (at most `maxItems` each).
std::string describeEvidence(const BugEvidence& evidence, std::size_t maxItems = 8);

}  // namespace tilescope
