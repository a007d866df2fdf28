// std::visit over an intent's alternatives with one lambda each: Overloaded{[](const A&) {...},
// [](const B&) {...}} is a callable with every lambda's operator().
#pragma once

namespace tilescope::ui {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace tilescope::ui
