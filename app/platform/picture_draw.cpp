#include "platform/picture_draw.h"

#include "platform/gl.h"

#include <imgui_impl_opengl3.h>

namespace tilescope::platform {
namespace {

void backgroundOf(const PictureKey& key, float& r, float& g, float& b) {
  r = float(key.background & 0xff) / 255.f;
  g = float((key.background >> 8) & 0xff) / 255.f;
  b = float((key.background >> 16) & 0xff) / 255.f;
}

}  // namespace

void clearFramebuffer(int width, int height, float r, float g, float b) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void drawWholePicture(ImDrawData& data, const PictureKey& key) {
  float r, g, b;
  backgroundOf(key, r, g, b);
  clearFramebuffer(key.width, key.height, r, g, b);
  ImGui_ImplOpenGL3_RenderDrawData(&data);
}

bool drawPictureRegions(ImDrawData& data, const PictureKey& key, const std::vector<PixelRect>& regions,
                        const std::vector<PixelRect>* bounds) {
  float r, g, b;
  backgroundOf(key, r, g, b);
  std::vector<ImVec4> saved;
  std::vector<ImDrawList*> lists;
  bool first = true;
  for (const PixelRect& region : regions) {
    if (!clipToRegion(data, region, key.height, saved, lists, bounds)) return false;
    if (first) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      glViewport(0, 0, key.width, key.height);
      glClearColor(r, g, b, 1.0f);
      first = false;
    }
    // The scissor box in GL's rows, from the bottom.
    glEnable(GL_SCISSOR_TEST);
    glScissor(region.x0, key.height - region.y1, region.x1 - region.x0, region.y1 - region.y0);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    ImDrawData part = data;  // only the lists with a command in the region
    part.CmdLists = lists.data();
    part.CmdListsCount = int(lists.size());
    if (!lists.empty()) ImGui_ImplOpenGL3_RenderDrawData(&part);
    restoreClips(data, saved);
  }
  return true;
}

}  // namespace tilescope::platform
