#include "ui/model/lab_state.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/asset_paths.h"
#include "core/files/output_file.h"
#include "lab/lab_source.h"

namespace tilescope::ui {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Written under a staging name and renamed into place (core/files/output_file.h), so a crash
// mid-write never leaves a half-written file where a whole one was.
Status writeText(const fs::path& path, const std::string& text) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  const std::string staging = stagingPathFor(path.string());
  {
    std::ofstream out(staging, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      discardStaging(staging, path.string());
      return failure("cannot write " + path.string());
    }
  }
  return moveIntoPlace(staging, path.string());
}

std::string fileNameOf(const std::string& path) {
  return path.empty() ? std::string("kernel.cu") : fs::path(path).filename().string();
}

// The launch the text's own `// lab:` lines ask for (defaults when it has none or they are bad).
LabLaunchFields launchFromText(const std::string& text, const std::string& fileName, std::string* from,
                               std::string* expect) {
  auto settings = lab::readLabSettings(text, fileName);
  if (!settings) return LabLaunchFields{};
  if (from) *from = settings->from;
  if (expect) *expect = settings->expect;
  return launchFromSettings(*settings);
}

// An open replaces the editor's text: unsaved changes are kept to be brought back.
void keepReplaced(LabState& s) {
  if (s.modified && !s.text.empty()) s.replaced = std::make_pair(s.text, s.path);
}

// Every change of the text goes through here: the autosave and the derived fields follow it.
void adoptText(LabState& s, std::string text) {
  s.text = std::move(text);
  ++s.edits;
  s.fileDefs = fileDefines(s.text);
  s.params = scalarParameters(s.text);
}

}  // namespace

bool LabLaunchFields::operator==(const LabLaunchFields& o) const {
  auto sameDefines = std::equal(defines.begin(), defines.end(), o.defines.begin(), o.defines.end(),
                                [](const lab::LabDefine& a, const lab::LabDefine& b) { return a.name == b.name && a.value == b.value; });
  auto sameArgs = std::equal(args.begin(), args.end(), o.args.begin(), o.args.end(),
                             [](const lab::LabArg& a, const lab::LabArg& b) { return a.name == b.name && a.value == b.value; });
  return useDims == o.useDims && width == o.width && dims == o.dims && sameDefines && blockX == o.blockX &&
         blockY == o.blockY && gridX == o.gridX && gridY == o.gridY && gridCoarsenX == o.gridCoarsenX && sameArgs &&
         sharedBytes == o.sharedBytes && timeoutSeconds == o.timeoutSeconds && backend == o.backend;
}

lab::LabRequest labRequest(const LabState& s) {
  const LabLaunchFields& f = s.launch;
  lab::LabRequest q;
  q.source = s.text;
  q.fileName = fileNameOf(s.path);
  q.dims = f.useDims ? f.dims : Dims{f.width, f.width, f.width};
  for (const lab::LabDefine& d : f.defines)
    if (!d.name.empty() && !d.value.empty()) q.defines.push_back(d);
  if (f.blockX > 0 && f.blockY > 0) q.block = Dim3{unsigned(f.blockX), unsigned(f.blockY), 1};
  if (f.gridX > 0 && f.gridY > 0) q.grid = Dim3{unsigned(f.gridX), unsigned(f.gridY), 1};
  q.gridCoarsenX = std::max(1, f.gridCoarsenX);
  q.args = f.args;
  q.sharedBytes = unsigned(std::max(0, f.sharedBytes));
  q.timeoutSeconds = f.timeoutSeconds;
  q.backend = f.backend;
  return q;
}

LabLaunchFields launchFromSettings(const lab::LabFileSettings& settings) {
  LabLaunchFields f;
  if (settings.size) f.width = *settings.size, f.dims = {f.width, f.width, f.width};
  if (settings.dims) f.useDims = true, f.dims = *settings.dims, f.width = settings.dims->j;
  f.defines = settings.defines;
  if (settings.block) f.blockX = int(settings.block->x), f.blockY = int(settings.block->y);
  if (settings.grid) f.gridX = int(settings.grid->x), f.gridY = int(settings.grid->y);
  f.args = settings.args;
  if (settings.sharedBytes) f.sharedBytes = int(*settings.sharedBytes);
  return f;
}

LabLaunchFields launchFromExercise(const lab::Exercise& x) {
  LabLaunchFields f;
  if (!x.sizes.empty()) {
    f.dims = x.sizes.front();
    f.useDims = !(f.dims.j == f.dims.k && f.dims.k == f.dims.l);
    f.width = f.dims.j;
  }
  f.defines = x.defines;
  if (x.block) f.blockX = int(x.block->x), f.blockY = int(x.block->y);
  f.gridCoarsenX = x.gridCoarsenX;
  f.args = x.args;
  f.sharedBytes = int(x.sharedBytes);
  return f;
}

std::vector<LabFileDefine> fileDefines(std::string_view text) {
  std::vector<LabFileDefine> out;
  int number = 1;
  for (std::size_t at = 0; at <= text.size(); ++number) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::istringstream words{std::string(text.substr(at, nl - at))};
    std::string hash, name, value;
    words >> hash;
    if (hash == "#define" && words >> name) {
      std::getline(words >> std::ws, value);
      if (const auto comment = value.find("//"); comment != std::string::npos) value.erase(comment);
      while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.pop_back();
      if (name.find('(') == std::string::npos) out.push_back({name, value, number});  // not a macro function
    }
    at = nl + 1;
  }
  return out;
}

std::vector<std::string> scalarParameters(std::string_view text) {
  std::vector<std::string> names;
  auto kernel = lab::readKernelSource(text, "kernel.cu");
  if (!kernel) return names;
  for (const lab::KernelParam& p : kernel->params)
    if (p.role == lab::KernelParam::Role::Arg && !p.pointer) names.push_back(p.name);
  return names;
}

void setLabText(LabState& s, std::string text) {
  if (text == s.text) return;
  adoptText(s, std::move(text));
  s.modified = true;
}

bool openLabFile(LabState& s, const std::string& path) {
  auto text = readText(path);
  if (!text) {
    s.message = "cannot open " + path;
    s.messageIsError = true;
    return false;
  }
  auto settings = lab::readLabSettings(*text, fileNameOf(path));
  if (!settings) {  // opened all the same: the student may be about to fix that line
    s.message = settings.error().message;
    s.messageIsError = true;
  } else {
    s.message = "opened " + path;
    s.messageIsError = false;
  }
  keepReplaced(s);
  s.launch = settings ? launchFromSettings(*settings) : LabLaunchFields{};
  s.from = settings ? settings->from : "";
  s.expect = settings ? settings->expect : "";
  adoptText(s, std::move(*text));
  s.path = path;
  s.pathField = path;
  s.modified = false;
  s.exercise.clear();
  return true;
}

bool saveLabFile(LabState& s, const std::string& path) {
  const std::string target = path.empty() ? s.path : path;
  if (target.empty()) {
    s.message = "type a file name to save to";
    s.messageIsError = true;
    return false;
  }
  if (auto w = writeText(target, s.text); !w) {
    s.message = w.error().message;
    s.messageIsError = true;
    return false;
  }
  s.path = target;
  s.pathField = target;
  s.modified = false;
  s.message = "saved " + target;
  s.messageIsError = false;
  ++s.edits;  // the autosave records the new path
  return true;
}

void openExercise(LabState& s, const lab::Exercise& x) {
  keepReplaced(s);
  adoptText(s, x.starter);
  s.path.clear();
  s.pathField = x.id + ".cu";
  s.modified = true;
  s.launch = launchFromExercise(x);
  s.exercise = x.id;
  s.from = "exercise " + x.id + ": " + x.title;
  s.expect.clear();
  s.message = "the starter of exercise " + x.id + " (save it to keep your own copy)";
  s.messageIsError = false;
}

fs::path labAutosaveFile() { return lab::progressFile().parent_path() / "lab-autosave.cu"; }

Status writeLabAutosave(LabState& s, const fs::path& file) {
  const fs::path pathFile = fs::path(file).replace_extension(".path");
  if (auto w = writeText(pathFile, s.path + "\n" + s.exercise + "\n"); !w) return w;
  if (auto w = writeText(file, s.text); !w) return w;
  s.autosavedEdits = s.edits;
  return Ok{};
}

void tickLabAutosave(LabState& s, double now, double interval) {
  if (s.edits == s.autosavedEdits || now - s.lastAutosave < interval) return;
  s.lastAutosave = now;
  if (auto w = writeLabAutosave(s); !w) {
    s.message = "autosave: " + w.error().message;
    s.messageIsError = true;
    s.autosavedEdits = s.edits;  // said once, not every frame
  }
}

void initLabState(LabState& s, const fs::path& autosave) {
  if (auto x = lab::loadExercises()) s.exercises = std::move(*x);
  else s.exercisesError = x.error().message;
  s.progress = lab::loadProgress();
  if (auto text = readText(autosave)) {
    std::string path, exercise;
    if (auto saved = readText(fs::path(autosave).replace_extension(".path"))) {
      std::istringstream lines(*saved);
      std::getline(lines, path);
      std::getline(lines, exercise);
    }
    adoptText(s, std::move(*text));
    s.path = path;
    s.pathField = path;
    s.exercise = exercise;
    s.launch = launchFromText(s.text, fileNameOf(path), &s.from, &s.expect);
    for (const lab::Exercise& x : s.exercises)
      if (x.id == exercise) s.launch = launchFromExercise(x);
    const auto onDisk = path.empty() ? std::nullopt : readText(path);
    s.modified = !onDisk || *onDisk != s.text;
    s.restored = true;
    s.message = "restored your last session's text" + (path.empty() ? std::string() : " of " + path);
    s.autosavedEdits = s.edits;
    return;
  }
  const auto examples = labExampleFiles();
  const auto first = std::find_if(examples.begin(), examples.end(),
                                  [](const std::string& p) { return p.find("pmpp_fig5_9.cu") != std::string::npos; });
  if (first != examples.end()) openLabFile(s, *first);
  s.message.clear();
  s.autosavedEdits = s.edits;
}

std::vector<std::string> labExampleFiles() {
  std::vector<std::string> files;
  auto dir = assetPath("lab/examples");
  if (!dir) return files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(*dir, ec))
    if (entry.path().extension() == ".cu") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

KernelResources labResources(const KernelLaunch& launch, const lab::LabOutcome& outcome) {
  if (!outcome.gpu || outcome.gpu->registersPerThread <= 0) return {};
  KernelResources r = kernelResources(launch);
  r.registersPerThread = outcome.gpu->registersPerThread;
  r.registersSource = "NVRTC and ptxas on " + outcome.gpu->device + " (the kernel as written)";
  return r;
}

}  // namespace tilescope::ui
