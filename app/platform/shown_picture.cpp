#include "platform/shown_picture.h"

#include <imgui.h>

#include <cstring>

namespace tilescope::platform {
namespace {

template <class T>
void put(std::vector<unsigned char>& out, const T& value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

void putBytes(std::vector<unsigned char>& out, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  out.insert(out.end(), p, p + bytes);
}

}  // namespace

bool encodePicture(const ImDrawData& data, const PictureKey& key, std::vector<unsigned char>& out) {
  out.clear();
  put(out, key.width);
  put(out, key.height);
  put(out, key.background);
  put(out, key.gridRedraws);
  put(out, data.DisplayPos);
  put(out, data.DisplaySize);
  put(out, data.FramebufferScale);
  put(out, data.CmdListsCount);
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    put(out, list.VtxBuffer.Size);
    putBytes(out, list.VtxBuffer.Data, std::size_t(list.VtxBuffer.Size) * sizeof(ImDrawVert));
    put(out, list.IdxBuffer.Size);
    putBytes(out, list.IdxBuffer.Data, std::size_t(list.IdxBuffer.Size) * sizeof(ImDrawIdx));
    put(out, list.CmdBuffer.Size);
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      put(out, cmd.ClipRect);
      put(out, cmd.TextureId);
      put(out, cmd.VtxOffset);
      put(out, cmd.IdxOffset);
      put(out, cmd.ElemCount);
      if (cmd.UserCallback) return false;  // it draws what the bytes cannot tell
    }
  }
  return true;
}

}  // namespace tilescope::platform
