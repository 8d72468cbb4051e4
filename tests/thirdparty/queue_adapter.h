// What the third-party queue tests share: the conservation invariant over a
// queue spec whose operations are "push" (an int, accepted or not: bool) and
// "pop" (std::optional<int>). Each test declares its library queue's spec
// with it.
#ifndef TESTS_THIRDPARTY_QUEUE_ADAPTER_H_
#define TESTS_THIRDPARTY_QUEUE_ADAPTER_H_

#include <map>
#include <optional>
#include <string>

#include "racelab/spec.h"

namespace thirdparty {

// Conservation, once every thread has finished: `pop` drains what is left;
// every accepted push was popped exactly once, and nothing else was.
template <class Pop>
auto conservation(Pop pop) {
  return [pop](auto& queue, const racelab::Calls& calls) -> std::string {
    std::map<int, int> left;  // per value: pushes accepted minus items popped
    for (const racelab::CallView& c : calls) {
      if (c.name() == "push" && c.result<bool>()) ++left[c.arg<int>(0)];
      if (c.name() == "pop" && c.result<std::optional<int>>())
        --left[*c.result<std::optional<int>>()];
    }
    while (std::optional<int> v = pop(queue)) --left[*v];
    std::string broken;
    for (const auto& [value, n] : left) {
      const std::string v = std::to_string(value);
      if (n != 0) broken += broken.empty() ? "" : "; ";
      if (n > 0)
        broken += "push(" + v + ") was accepted, its item never popped";
      if (n < 0) broken += "pop() returned " + v + " more often than pushed";
    }
    return broken;
  };
}

}  // namespace thirdparty

#endif  // TESTS_THIRDPARTY_QUEUE_ADAPTER_H_
