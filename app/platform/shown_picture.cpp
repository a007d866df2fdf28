#include "platform/shown_picture.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tilescope::platform {
namespace {

std::vector<ImTextureID>& redrawnTextures() {
  static std::vector<ImTextureID> textures;
  return textures;
}

template <class T>
void put(std::vector<unsigned char>& out, const T& value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

PixelRect unite(const PixelRect& a, const PixelRect& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

PixelRect intersect(const PixelRect& a, const PixelRect& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

// Overlapping or sharing an edge (merged first: their union adds few or no pixels).
bool touches(const PixelRect& a, const PixelRect& b) {
  return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1;
}

// The pixels a command may touch: its triangles' bounding box within its clip rectangle, a
// pixel wider on every side (a pixel is drawn when its centre is covered), within the canvas.
PixelRect touchedPixels(const ImDrawVert* v, uint32_t n, const ImVec4& clip, const ImVec2& offset, int width,
                        int height) {
  if (n == 0) return {};
  float x0 = v[0].pos.x, y0 = v[0].pos.y, x1 = x0, y1 = y0;
  for (uint32_t i = 1; i < n; ++i) {
    x0 = std::min(x0, v[i].pos.x), x1 = std::max(x1, v[i].pos.x);
    y0 = std::min(y0, v[i].pos.y), y1 = std::max(y1, v[i].pos.y);
  }
  x0 = std::max(x0, clip.x), y0 = std::max(y0, clip.y), x1 = std::min(x1, clip.z), y1 = std::min(y1, clip.w);
  if (!(x1 > x0 && y1 > y0)) return {};
  const PixelRect r{int(std::floor(x0 - offset.x)) - 1, int(std::floor(y0 - offset.y)) - 1,
                    int(std::ceil(x1 - offset.x)) + 1, int(std::ceil(y1 - offset.y)) + 1};
  return intersect(r, {0, 0, width, height});
}

bool shows(const std::vector<ImTextureID>& textures, ImTextureID t) {
  return std::find(textures.begin(), textures.end(), t) != textures.end();
}

}  // namespace

void noteTextureRedrawn(ImTextureID texture) {
  auto& textures = redrawnTextures();
  if (!shows(textures, texture)) textures.push_back(texture);
}

bool PictureTracker::take(const ImDrawData& data, const PictureKey& key, Snapshot& out) const {
  out.header.clear();
  out.vertices.clear();
  out.commands.clear();
  out.lists.clear();
  out.exact = true;
  put(out.header, key.width);
  put(out.header, key.height);
  put(out.header, key.background);
  put(out.header, data.DisplayPos);
  put(out.header, data.DisplaySize);
  put(out.header, data.FramebufferScale);
  // The fonts: the atlas is rebuilt only when the text's scale changes (the same fonts at the
  // same sizes give the same atlas).
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  put(out.header, atlas->TexID);
  put(out.header, atlas->TexWidth);
  put(out.header, atlas->TexHeight);
  for (const ImFont* font : atlas->Fonts) put(out.header, font->FontSize);
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    List l{&list, uint32_t(out.commands.size()), 0, {}};
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback) out.exact = false;  // it draws what the vertices cannot tell
      Command c{cmd.ClipRect, cmd.TextureId, uint32_t(out.vertices.size()), cmd.ElemCount, {}};
      const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
      for (uint32_t i = 0; i < cmd.ElemCount; ++i) out.vertices.push_back(vtx[idx[i]]);
      c.bounds = touchedPixels(out.vertices.data() + c.firstVertex, c.vertices, cmd.ClipRect, data.DisplayPos,
                              key.width, key.height);
      l.bounds = unite(l.bounds, c.bounds);
      out.commands.push_back(c);
    }
    l.commands = uint32_t(out.commands.size()) - l.firstCommand;
    out.lists.push_back(l);
  }
  return out.exact;
}

void PictureTracker::commandChanges(const List& was, const List& now, const std::vector<ImTextureID>& redrawn,
                                    std::vector<PixelRect>& out) const {
  if (was.commands != now.commands) {
    out.push_back(unite(was.bounds, now.bounds));
    return;
  }
  for (uint32_t i = 0; i < now.commands; ++i) {
    const Command& a = shown_.commands[was.firstCommand + i];
    const Command& b = next_.commands[now.firstCommand + i];
    const bool same = std::memcmp(&a.clip, &b.clip, sizeof a.clip) == 0 && a.texture == b.texture &&
                      a.vertices == b.vertices && !shows(redrawn, b.texture) &&
                      std::memcmp(shown_.vertices.data() + a.firstVertex, next_.vertices.data() + b.firstVertex,
                                  sizeof(ImDrawVert) * a.vertices) == 0;
    if (!same) out.push_back(unite(a.bounds, b.bounds));
  }
}

std::vector<PixelRect> PictureTracker::changes(const ImDrawData& data, const PictureKey& key) {
  const PixelRect whole{0, 0, key.width, key.height};
  const bool exact = take(data, key, next_);
  if (!valid_ || !exact || next_.header != shown_.header || next_.lists.size() != shown_.lists.size())
    return {whole};
  std::vector<PixelRect> changed;
  for (std::size_t n = 0; n < next_.lists.size(); ++n) {
    if (next_.lists[n].list != shown_.lists[n].list) return {whole};  // a window came, went or moved up
    commandChanges(shown_.lists[n], next_.lists[n], redrawnTextures(), changed);
  }
  std::erase_if(changed, [](const PixelRect& r) { return r.empty(); });
  if (changed.empty()) return {};
  auto regions = mergeRegions(std::move(changed), kMaxRegions);
  long long area = 0;
  for (const PixelRect& r : regions) area += r.area();
  if (double(area) > kWholeShare * double(whole.area())) return {whole};
  return regions;
}

void PictureTracker::commit() {
  std::swap(shown_, next_);
  valid_ = shown_.exact;
  redrawnTextures().clear();
}

std::vector<PixelRect> mergeRegions(std::vector<PixelRect> rects, std::size_t maxRegions) {
  // Touching rectangles first: one pass merges each into the first it touches, until none do.
  for (bool merged = true; merged;) {
    merged = false;
    for (std::size_t i = 0; i < rects.size(); ++i)
      for (std::size_t j = i + 1; j < rects.size(); ++j)
        if (touches(rects[i], rects[j])) {
          rects[i] = unite(rects[i], rects[j]);
          rects.erase(rects.begin() + std::ptrdiff_t(j));
          merged = true;
          j = i;  // rects[i] grew: look again from the next one
        }
  }
  while (rects.size() > std::max<std::size_t>(maxRegions, 1)) {
    std::size_t bi = 0, bj = 1;
    long long best = -1;
    for (std::size_t i = 0; i < rects.size(); ++i)
      for (std::size_t j = i + 1; j < rects.size(); ++j) {
        const long long grows = unite(rects[i], rects[j]).area() - rects[i].area() - rects[j].area();
        if (best < 0 || grows < best) best = grows, bi = i, bj = j;
      }
    rects[bi] = unite(rects[bi], rects[bj]);
    rects.erase(rects.begin() + std::ptrdiff_t(bj));
  }
  return rects;
}

std::vector<PixelRect> PictureTracker::commandBounds() const {
  std::vector<PixelRect> out;
  out.reserve(next_.commands.size());
  for (const Command& c : next_.commands) out.push_back(c.bounds);
  return out;
}

bool clipToRegion(ImDrawData& data, const PixelRect& region, int framebufferHeight, std::vector<ImVec4>& saved,
                  std::vector<ImDrawList*>& lists, const std::vector<PixelRect>* bounds) {
  if (data.DisplayPos.x != 0.0f || data.DisplayPos.y != 0.0f || data.FramebufferScale.x != 1.0f ||
      data.FramebufferScale.y != 1.0f)
    return false;
  saved.clear();
  lists.clear();
  const int fbH = framebufferHeight;
  for (int n = 0; n < data.CmdListsCount; ++n) {
    ImDrawList& list = *data.CmdLists[n];
    bool any = false;
    for (ImDrawCmd& cmd : list.CmdBuffer) {
      saved.push_back(cmd.ClipRect);
      const ImVec4 c = cmd.ClipRect;
      // The backend's scissor box, glScissor(x, fbH - y - h, w, h), as rows from the top.
      const int x = int(c.x), w = int(c.z - c.x), h = int(c.w - c.y), yGl = int(float(fbH) - c.w);
      PixelRect box{x, fbH - yGl - h, x + w, fbH - yGl};
      if (c.z <= c.x || c.w <= c.y) box = {};
      // Its triangles: none reaches the region, nothing to draw (bounds has one per command).
      if (bounds && saved.size() <= bounds->size() && intersect((*bounds)[saved.size() - 1], region).empty()) box = {};
      const PixelRect r = intersect(box, region);
      if (r.empty()) {
        cmd.ClipRect = ImVec4(0, 0, 0, 0);  // skipped by the backend
        continue;
      }
      cmd.ClipRect = ImVec4(float(r.x0), float(r.y0), float(r.x1), float(r.y1));
      any = true;
    }
    if (any) lists.push_back(&list);
  }
  return true;
}

void restoreClips(ImDrawData& data, const std::vector<ImVec4>& saved) {
  std::size_t k = 0;
  for (int n = 0; n < data.CmdListsCount; ++n)
    for (ImDrawCmd& cmd : data.CmdLists[n]->CmdBuffer) cmd.ClipRect = saved[k++];
}

}  // namespace tilescope::platform
