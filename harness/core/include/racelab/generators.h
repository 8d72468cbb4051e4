// Argument generators of declared operations (spec.h): where the random
// programs of a Spec get their arguments.
//
//   racelab::ints(0, 9)              an int in [0, 9]
//   racelab::values(1L, 5L, 9L)      one of the given values (any showable
//                                    type: enums, strings, your own types)
//   racelab::keys("k", 3)            "k0", "k1" or "k2"
//   racelab::bools()                 true or false
//
// A generator G has `using value_type`, `value_type generate(Choices&)`, and
// reads a value back from a program or schedule file with
// `std::optional<value_type> parse(std::string_view)`. Write your own with
// the same three members.
//
// A generator of the last argument may add
// `static constexpr bool kRestOfArguments = true;`: its value is then
// written as the rest of the argument list, unescaped (zero or more words
// joined by ','): flags as in "all()", "all(pause,stop=2)". parse() gets
// those words joined by ',' ("" when there are none).
#ifndef RACELAB_GENERATORS_H_
#define RACELAB_GENERATORS_H_

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "racelab/show.h"

namespace racelab {

// A source of choices: a seeded generator for the scenarios, the input's
// bytes for a fuzz target.
class Choices {
 public:
  virtual ~Choices() = default;
  // A number in [0, bound), bound > 0.
  virtual int below(int bound) = 0;
};

template <class G>
concept Generator = requires(G& g, Choices& choices, std::string_view text) {
  typename G::value_type;
  { g.generate(choices) } -> std::convertible_to<typename G::value_type>;
  { g.parse(text) } -> std::same_as<std::optional<typename G::value_type>>;
};

// Whether G's value is written as the rest of the argument list.
template <class G>
concept RestOfArguments = Generator<G> && requires {
  requires G::kRestOfArguments;
};

// Integers in [lo, hi].
template <std::integral T = int>
struct IntGenerator {
  using value_type = T;
  T lo;
  T hi;
  T generate(Choices& c) const {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return static_cast<T>(
        lo + static_cast<T>(c.below(
                 span > 1'000'000 ? 1'000'000 : static_cast<int>(span))));
  }
  // Any integer of the type: hand-written programs may go outside [lo, hi].
  std::optional<T> parse(std::string_view text) const {
    return parse_argument<T>(text);
  }
};

template <std::integral T>
IntGenerator<T> ints(T lo, T hi) {
  return {lo, hi};
}

// One of a fixed set of values. Reads back any value of the set, and any
// integer, bool or string the type can parse.
template <class T>
struct ValueGenerator {
  using value_type = T;
  std::vector<T> choices;
  T generate(Choices& c) const {
    return choices[static_cast<std::size_t>(
        c.below(static_cast<int>(choices.size())))];
  }
  std::optional<T> parse(std::string_view text) const {
    if constexpr (ParsableArgument<T>) {
      return parse_argument<T>(text);
    } else {
      for (const T& v : choices) {
        if (show_argument(v) == text) return v;
      }
      return std::nullopt;
    }
  }
};

// String literals are kept as std::string.
template <class T>
using GeneratedValue =
    std::conditional_t<std::is_convertible_v<T, std::string_view>, std::string,
                       T>;

template <class T, class... More>
requires(std::convertible_to<More, GeneratedValue<T>>&&...)
    ValueGenerator<GeneratedValue<T>> values(T first, More... more) {
  using V = GeneratedValue<T>;
  return {{V(std::move(first)), V(std::move(more))...}};
}

inline ValueGenerator<bool> bools() { return {{false, true}}; }

// "<prefix>0" .. "<prefix>(n-1)": keys of a map, names of sessions.
inline ValueGenerator<std::string> keys(std::string_view prefix, int n) {
  ValueGenerator<std::string> g;
  for (int i = 0; i < n; ++i)
    g.choices.push_back(std::string(prefix) + std::to_string(i));
  return g;
}

}  // namespace racelab

#endif  // RACELAB_GENERATORS_H_
