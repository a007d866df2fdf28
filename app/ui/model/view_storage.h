// Rebuilding a view in place (state/view_cache.h keeps each view in its slot): a builder starts
// from a fresh view but keeps the storage of its large vectors, so that a cursor move while
// playing does not free and allocate a grid's cells again. No ImGui here.
#pragma once
#include <tuple>
#include <utility>

namespace tilescope::ui {

// Resets `view` to `View{}` except that the vectors named by `members` keep their storage
// (emptied: the builder fills them again from scratch, as if they were new).
template <class View, class... Vec>
void resetKeeping(View& view, Vec View::*... members) {
  std::tuple<Vec...> kept{std::move(view.*members)...};
  view = View{};
  std::apply([&](Vec&... v) { ((view.*members = std::move(v), (view.*members).clear()), ...); }, kept);
}

}  // namespace tilescope::ui
