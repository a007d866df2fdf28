// The Source panel's view (source_view.h).
#include "ui/model/source_view.h"

#include "kernels/kernel_sources.h"

namespace tilescope::ui {

SourceView sourceView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor) {
  SourceView v;
  const KernelInfo& info = kernelInfo(run.run.config.kernel);
  const LabKernel* lab = labKernel(run.run);
  v.path = lab ? "lab: " + lab->fileName : "kernels/" + std::string(info.sourceFile);
  const auto source = lab ? std::optional<std::string_view>(lab->text) : kernelSource(info.id);
  v.embedded = source.has_value();
  if (!v.embedded) return v;
  v.text = std::string(lab ? *source : kernelBody(*source));
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  const auto& events = t.trace().events;
  for (uint32_t i : block.stepEvents(c.step)) v.stepLines.insert(events[i].line);
  const int64_t current = block.currentEvent(c);
  v.currentLine = current >= 0 ? events[std::size_t(current)].line : -1;
  return v;
}

}  // namespace tilescope::ui
