// How racelab writes a value of a declared operation (spec.h): its arguments
// in programs and schedule files ("push(3)", "set(k1,v)"), its results in
// traces and findings ("-> 3", "-> none", "-> [1,2]").
//
//   racelab::show(v)             text of any supported value, for display;
//   racelab::show_argument(v)    text of an argument, safe inside "op(...)";
//   racelab::parse_argument<T>   the inverse of show_argument for the types
//                                that have one (integers, bool, strings).
//
// Supported: bool, integers, enums, std::string (and string_view, const
// char*), std::optional, std::pair, std::tuple, ranges (vector, deque, set,
// list...), maps, and any type with an `operator<<` or a `to_string(v)` found
// by argument-dependent lookup. An enum without either shows as its number.
#ifndef RACELAB_SHOW_H_
#define RACELAB_SHOW_H_

#include <charconv>
#include <concepts>
#include <cstddef>
#include <optional>
#include <ostream>
#include <ranges>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace racelab {

template <class T>
std::string show(const T& value);

namespace show_internal {

template <class T>
concept Streamable = requires(std::ostream& os, const T& v) {
  os << v;
};

template <class T>
concept HasAdlToString = requires(const T& v) {
  { to_string(v) } -> std::convertible_to<std::string>;
};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
struct IsTupleLike : std::false_type {};
template <class... Ts>
struct IsTupleLike<std::tuple<Ts...>> : std::true_type {};
template <class A, class B>
struct IsTupleLike<std::pair<A, B>> : std::true_type {};

template <class T>
concept MapLike = std::ranges::range<T> && requires {
  typename T::key_type;
  typename T::mapped_type;
};

// Percent-escapes what may not appear inside "op(...)" (see op_text.h).
std::string escape_argument(std::string_view text);
// The inverse of escape_argument; nullopt for a malformed escape.
std::optional<std::string> unescape_argument(std::string_view text);

}  // namespace show_internal

// Whether racelab can show a T.
template <class T>
concept Showable = std::same_as<T, bool> || std::integral<T> ||
    std::is_enum_v<T> || std::convertible_to<const T&, std::string_view> ||
    show_internal::IsOptional<T>::value ||
    show_internal::IsTupleLike<T>::value || std::ranges::range<T> ||
    show_internal::HasAdlToString<T> || show_internal::Streamable<T>;

template <class T>
std::string show(const T& value) {
  using namespace show_internal;
  if constexpr (std::same_as<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (HasAdlToString<T> && !std::is_arithmetic_v<T>) {
    return std::string(to_string(value));
  } else if constexpr (std::integral<T>) {
    return std::to_string(value);
  } else if constexpr (std::convertible_to<const T&, std::string_view>) {
    return std::string(std::string_view(value));
  } else if constexpr (std::is_enum_v<T> && Streamable<T>) {
    std::ostringstream out;
    out << value;
    return out.str();
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(value));
  } else if constexpr (IsOptional<T>::value) {
    return value ? show(*value) : std::string("none");
  } else if constexpr (IsTupleLike<T>::value) {
    std::string out = "(";
    std::apply(
        [&out](const auto&... parts) {
          std::size_t i = 0;
          ((out += (i++ ? "," : "") + show(parts)), ...);
        },
        value);
    return out + ")";
  } else if constexpr (MapLike<T>) {
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : value) {
      out += (first ? "" : ",") + show(k) + "=" + show(v);
      first = false;
    }
    return out + "}";
  } else if constexpr (std::ranges::range<T>) {
    std::string out = "[";
    bool first = true;
    for (const auto& v : value) {
      out += (first ? "" : ",") + show(v);
      first = false;
    }
    return out + "]";
  } else if constexpr (Streamable<T>) {
    std::ostringstream out;
    out << value;
    return out.str();
  } else {
    static_assert(Showable<T>,
                  "racelab cannot show this type: give it an operator<< or a "
                  "to_string() found by argument-dependent lookup");
    return "";
  }
}

// An argument's text: show(value), escaped so that it reads back.
template <class T>
std::string show_argument(const T& value) {
  return show_internal::escape_argument(show(value));
}

// Whether parse_argument<T> exists for T.
template <class T>
concept ParsableArgument =
    std::same_as<T, bool> || std::integral<T> || std::same_as<T, std::string>;

// Reads an argument written by show_argument; nullopt when `text` is not one.
template <ParsableArgument T>
std::optional<T> parse_argument(std::string_view text) {
  if constexpr (std::same_as<T, bool>) {
    if (text == "true") return true;
    if (text == "false") return false;
    return std::nullopt;
  } else if constexpr (std::integral<T>) {
    T value{};
    auto [end, error] =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
      return std::nullopt;
    return value;
  } else {
    return show_internal::unescape_argument(text);
  }
}

}  // namespace racelab

#endif  // RACELAB_SHOW_H_
