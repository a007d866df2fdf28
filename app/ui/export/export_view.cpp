#include "ui/export/export_view.h"

#include <fstream>

#include "core/files/chrome_trace.h"
#include "core/files/trace_file.h"
#include "platform/page.h"

namespace tilescope::ui {

namespace {
std::string defaultName(const Run& run, const char* extension) {
  const Dims& d = run.config.dims;
  return "tilescope-" + kernelName(run) + "-" + std::to_string(d.j) + "x" +
         std::to_string(d.k) + "x" + std::to_string(d.l) + extension;
}

void report(AppState& state, const std::string& text, bool failed) {
  state.view.exported = text;
  state.view.exportFailed = failed;
}
}  // namespace

void exportView(AppState& state, const ExportView& e) {
  const LoadedRun* loaded = shownRun(state);
  if (!loaded) return report(state, "nothing to export yet", true);
  const Run& run = loaded->run;
  switch (e.kind) {
    case ExportKind::TraceFile: {
      // Written here, on the UI thread: traces the app animates are at most 256 MiB, and the
      // teacher asked for it; the frame after shows where it went.
      const std::string path = e.path.empty() ? defaultName(run, ".tstrace") : e.path;
      if (auto s = saveRun(run, path); !s) return report(state, s.error().message, true);
      platform::offerDownload(path);  // a page: the browser downloads it
      return report(state, "saved " + path + " (it opens again with " + platform::traceReopening() + ")", false);
    }
    case ExportKind::ChromeJson: {
      const std::string path = e.path.empty() ? defaultName(run, ".trace.json") : e.path;
      std::ofstream out(path, std::ios::binary);
      if (out) writeChromeTrace(out, run, defaultChromeTimebase(run));
      if (!out) return report(state, "cannot write " + path, true);
      out.close();
      platform::offerDownload(path);
      return report(state, "wrote " + path + " (open it in ui.perfetto.dev)", false);
    }
    case ExportKind::Png: {
      const std::string path = e.path.empty() ? defaultName(run, ".png") : e.path;
      state.view.pngExport = path;  // the frame loop captures it once the frame is drawn
      return report(state, "wrote " + path, false);
    }
  }
}

void applyExportIntents(const IntentQueue& exports, AppState& state, AnimationExportJob& animation) {
  for (const Intent& intent : exports) {
    if (const auto* e = std::get_if<ExportView>(&intent)) exportView(state, *e);
    if (const auto* a = std::get_if<ExportAnimation>(&intent)) startAnimationExport(animation, state, *a);
  }
}

}  // namespace tilescope::ui
