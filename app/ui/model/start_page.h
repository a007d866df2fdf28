// The first screen's way into the lessons, one for both layouts: the Lesson panel's start page
// (what the presenter shows) and the Controls panel's "Start here" prompt (the normal layout)
// open the same lesson with the same words, and the numbers in them come from the kernel list
// (a rung added to kernels/kernel_list.h is counted here without an edit).
#pragma once
#include <string>

namespace tilescope::ui {

struct StartPage {
  std::string lesson;  // the lesson the start opens (OpenLesson's key)
  std::string button;  // "Start here: lesson 1"
  std::string intro;   // what the lessons hold, the ladder's rungs counted from the kernel list
};

StartPage startPage();

// The ladder's rungs: the kernels of the list with a place on the ladder (KernelInfo::ladderRung).
int ladderRungs();

}  // namespace tilescope::ui
