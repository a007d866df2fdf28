// The Lab tab's model (README.md, "The kernel lab"): the editor's text and the file it came
// from, the launch as the fields show it, the newest outcome and grade, the exercises and the
// student's progress, and the autosave that keeps unsaved work through a quit or a crash.
// GUI-free: the panel (panel_lab.cpp) draws it and pushes LabIntents; applyLabIntent
// (lab_apply.cpp) changes it and hands runs to the run worker, so runLab never runs on the
// UI thread.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "lab/exercise.h"
#include "core/run/occupancy.h"
#include "lab/lab.h"

namespace tilescope::ui {

// The launch as the Lab tab's fields hold it. Zero block or grid: the lab's default (block
// from TILE_WIDTH & co., grid covering P).
struct LabLaunchFields {
  bool useDims = false;  // j, k, l (else one Width)
  int width = 16;
  Dims dims{16, 16, 16};
  std::vector<lab::LabDefine> defines;  // overrides of the file's #defines, and defines it lacks
  int blockX = 0, blockY = 0;
  int gridX = 0, gridY = 0;
  int gridCoarsenX = 1;
  std::vector<lab::LabArg> args;
  int sharedBytes = 0;
  double timeoutSeconds = 5.0;
  lab::LabBackend backend = lab::LabBackend::Emulator;
  bool operator==(const LabLaunchFields& other) const;  // (lab.h's LabDefine and LabArg have none)
};

// What the worker ran for the Lab tab: a kernel, or a grade of it against an exercise.
struct LabJob {
  lab::LabRequest request;
  std::optional<lab::Exercise> exercise;  // set: gradeExercise at the exercise's sizes
};
// What came back. The outcome's (or the grade's measured) finished run is the run worker's
// LoadedRun for the views (the lab finished it into one: the same object, shared).
struct LabResult {
  std::optional<lab::LabOutcome> outcome;
  std::optional<lab::Grade> grade;
  std::string exerciseId;
  std::string error;  // the lab refused the request (bad input, no compiler): no verdict
  bool shown = false;  // its run went to the views
  std::string viewsNote;  // why the views did not get it (no trace, trace too large)
};

// One `#define NAME VALUE` of the editor's text.
struct LabFileDefine {
  std::string name, value;
  int line = 0;
};

struct LabState {
  std::string text;                // the editor's buffer
  std::string path;                // the file it was opened from or saved to ("" = untitled)
  std::string pathField;           // the path field as typed
  bool modified = false;           // changed since opened or saved
  uint64_t edits = 0, autosavedEdits = 0;  // bumped by each change; what the autosave holds
  double lastAutosave = 0.0;
  bool restored = false;           // the text came from the autosave at start-up
  std::string message;             // what the last open/save did, or why it failed
  bool messageIsError = false;
  LabLaunchFields launch;
  std::string from;                // the file's `// lab: from` line
  std::string expect;              // the file's `// lab: expect` verdict
  // Read from the text at each change (not each frame): its #defines and further parameters.
  std::vector<LabFileDefine> fileDefs;
  std::vector<std::string> params;

  // The run in flight (0: none): its request generation and when it started.
  uint64_t pendingGeneration = 0;
  double startedAt = 0.0;
  bool pendingIsCheck = false;
  std::shared_ptr<const LabResult> result;  // the newest outcome or grade

  // The text an open replaced while it had unsaved changes, and its path: one click brings it back.
  std::optional<std::pair<std::string, std::string>> replaced;
  std::string cudaRefused;  // why runLab refused the CUDA backend ("" = it has not)

  std::vector<lab::Exercise> exercises;
  std::string exercisesError;
  std::string exercise;                 // the exercise the editor holds (id), "" = none
  std::string selected;                 // the exercise the Exercises list shows
  std::string sideTab;                  // brings "Launch" or "Exercises" forward once ("" = as the user left it)
  std::map<std::string, bool> progress;  // loadProgress/saveProgress
  std::string progressError;
};

// Every LabState change the panel or a script asks for.
struct LabOpenFile { std::string path; };  // reads it and its `// lab:` settings
struct LabSaveFile { std::string path; };  // "" = the file it came from
struct LabSetText { std::string text; };
struct LabAppendLine { std::string line; };
struct LabSetPathField { std::string path; };
struct LabSetLaunch { LabLaunchFields launch; };
struct LabOpenExercise { std::string id; };  // its starter and launch into the editor
struct LabRun {};
struct LabCheck { std::string id; };         // "" = the exercise the editor holds
struct LabCancel {};
struct LabSelectExercise { std::string id; };
struct LabBringBack {};                      // the text the last open replaced
struct LabShowSide { std::string tab; };     // "Launch" or "Exercises" forward; "" once it is
using LabIntent = std::variant<LabOpenFile, LabSaveFile, LabSetText, LabAppendLine, LabSetPathField, LabSetLaunch,
                               LabOpenExercise, LabRun, LabCheck, LabCancel, LabSelectExercise, LabBringBack, LabShowSide>;

// ---- GUI-free helpers (lab_state.cpp), tested in tests/ui/model/lab_state_test.cpp ----

// The request the fields and the editor describe.
lab::LabRequest labRequest(const LabState& s);

// What the Occupancy panel is given for a lab run: the launch's threads and shared memory,
// and on the GPU the registers NVRTC and ptxas gave the kernel as written (outcome.gpu); on
// the emulator nothing (the analysis then takes the profile's estimate, and says so).
KernelResources labResources(const KernelLaunch& launch, const lab::LabOutcome& outcome);
// The fields a file's `// lab:` lines ask for (defaults for the rest).
LabLaunchFields launchFromSettings(const lab::LabFileSettings& settings);
LabLaunchFields launchFromExercise(const lab::Exercise& x);
// The `#define NAME VALUE` lines of `text`, in order.
std::vector<LabFileDefine> fileDefines(std::string_view text);
// The kernel's further scalar parameters (beyond M, N, P and the sizes), or none when the
// signature cannot be read yet.
std::vector<std::string> scalarParameters(std::string_view text);

// Opens `path` into the state (text, settings, launch); false with s.message on failure.
bool openLabFile(LabState& s, const std::string& path);
bool saveLabFile(LabState& s, const std::string& path);
void openExercise(LabState& s, const lab::Exercise& x);
void setLabText(LabState& s, std::string text);

// The autosave: $XDG_STATE_HOME/tilescope/lab-autosave.cu (beside the progress file), and
// lab-autosave.path with the file the text belongs to.
std::filesystem::path labAutosaveFile();
Status writeLabAutosave(LabState& s, const std::filesystem::path& file = labAutosaveFile());
// Writes when the text changed and `now` is `interval` seconds past the last write.
void tickLabAutosave(LabState& s, double now, double interval = 2.0);
// At start-up: the autosaved text, if any (else fig. 5.9's example); exercises and progress.
void initLabState(LabState& s, const std::filesystem::path& autosave = labAutosaveFile());

// The shipped examples and exercises the file list offers, as paths.
std::vector<std::string> labExampleFiles();

// What the frame drew, for script mode's layout JSON and the GUI tests.
struct LabLayout {
  bool drawn = false;
  float gutterX = 0, gutterWidth = 0, textX = 0;  // window pixels
  float firstLineY = 0, lineHeight = 0;           // line n's top: firstLineY + (n - 1) * lineHeight
  float editorY = 0, editorHeight = 0;            // the visible part
  std::vector<int> errorLines;                     // marked red in the gutter this frame
};

}  // namespace tilescope::ui
