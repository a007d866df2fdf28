#include "core/trace/trace_json.h"

namespace tilescope {

void writeEventJson(JsonWriter& json, const Event& e, unsigned blockX) {
  json.beginObject();
  json.field("op", opName(e.op));
  json.key("block").pairOrNull(e.blockX, e.blockY);
  json.key("thread").pairOrNull(e.threadX, e.threadY);
  json.field("warp", warpOf(e, blockX));
  json.field("phase", int(e.phase));
  json.key("k");
  if (e.k >= 0) json.value(int(e.k));
  else json.null();
  switch (e.op) {
    case Op::LoadM:
    case Op::LoadN:
      json.key("src").pairOrNull(e.globalRow, e.globalCol);
      json.key("dst").pairOrNull(e.sharedRow, e.sharedCol);
      break;
    case Op::ReadM:
    case Op::ReadN:
      json.key("src").pairOrNull(e.sharedRow, e.sharedCol);
      json.key("dst").null();
      break;
    case Op::StoreP:
      json.key("src").null();
      json.key("dst").pairOrNull(e.globalRow, e.globalCol);
      break;
    case Op::LoadW:  // the workspace: (0, the element's index)
      json.key("src").pairOrNull(e.globalRow, e.globalCol);
      json.key("dst").null();
      break;
    case Op::StoreW:
      json.key("src").null();
      json.key("dst").pairOrNull(e.globalRow, e.globalCol);
      break;
    default:
      json.key("src").null();
      json.key("dst").null();
  }
  json.field("in_bounds", inBounds(e));
  json.field("zero_fill", zeroFilled(e));
  json.field("line", int(e.line));
  if (e.op != Op::Barrier) json.field("value", double(e.value));
  json.endObject();
}

void writeLaunchFields(JsonWriter& json, const KernelLaunch& L) {
  json.field("kernel", L.labTiles ? std::string_view("lab") : kernelInfo(L.kernel).name);  // a lab kernel has no KernelId
  json.key("dims").beginObject().field("j", L.j).field("k", L.k).field("l", L.l).endObject();
  json.key("tile");
  if (L.labTiles ? L.tile > 0 : kernelInfo(L.kernel).tiled) json.value(L.tile);
  else json.null();
  json.key("block").beginArray().value(L.blockX).value(L.blockY).endArray();
  json.key("grid").beginArray().value(L.gridX).value(L.gridY).endArray();
  json.field("pad", L.pad);
}

void writeTraceJson(JsonWriter& json, const Trace& trace) {
  json.beginObject();
  writeLaunchFields(json, trace.launch);
  json.field("phases", trace.phases);
  json.key("events").beginArray();
  for (const Event& e : trace.events) writeEventJson(json, e, trace.launch.blockX);
  json.endArray();
  json.endObject();
}

}  // namespace tilescope
