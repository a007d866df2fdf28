// The desktop's frame loop is a loop; it has no host page to tell anything.
#include "platform/frame_loop.h"

namespace tilescope::platform {

int runFrameLoop(std::function<bool()> frame, std::function<int()> finish) {
  while (frame()) {
  }
  return finish();
}

void announceFirstPicture() {}
void announceScriptEnd(bool, const std::string&) {}

}  // namespace tilescope::platform
