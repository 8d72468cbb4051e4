// The oracles: what judges a run, and sets of them. One name table serves the
// CLI's --oracles flag, results.json and every report.
//
// Two kinds of oracle exist. The selectable ones can be turned on and off per
// run (`--oracles tsan,invariants,linearizability,gomap`): tsan (the build's
// race detector; off means its reports are disabled), the scenario's
// invariants, the family's sequential model (linearizability) and the
// Go-runtime-style checks of racelab::GoMap (gomap). The others are always on
// where they apply: asan (the ASan build's runtime), deadlock (the controlled
// scheduler, or the stress-mode watchdog and TSan's lock-order report), and
// crash and timeout (the child process that ran the case died or made no
// progress).
#ifndef RACELAB_ORACLE_H_
#define RACELAB_ORACLE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace racelab {

enum class Oracle : std::uint8_t {
  kTsan,
  kAsan,
  kInvariants,
  kLinearizability,
  kGomap,
  kDeadlock,
  kCrash,
  kTimeout,
};
inline constexpr int kOracleCount = 8;

// "tsan", "asan", "invariants", "linearizability", "gomap", "deadlock",
// "crash", "timeout".
const char* to_string(Oracle oracle);
// The inverse of to_string. Also reads "invariant", the spelling of an
// invariant finding's oracle in results.json files written before the name
// table was one.
std::optional<Oracle> parse_oracle(std::string_view name);
// Every oracle, in enum order.
const std::vector<Oracle>& all_oracles();
// Whether --oracles can turn it on or off.
bool is_selectable(Oracle oracle);

// A set of oracles, iterated in enum order.
class OracleSet {
 public:
  constexpr OracleSet() = default;
  constexpr OracleSet(std::initializer_list<Oracle> oracles) {
    for (Oracle o : oracles) insert(o);
  }
  // tsan, invariants, linearizability, gomap: the default of every run.
  static constexpr OracleSet selectable() {
    return {Oracle::kTsan, Oracle::kInvariants, Oracle::kLinearizability,
            Oracle::kGomap};
  }

  constexpr bool contains(Oracle o) const { return (bits_ & bit(o)) != 0; }
  constexpr void insert(Oracle o) { bits_ |= bit(o); }
  constexpr void erase(Oracle o) { bits_ &= ~bit(o); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(const OracleSet&) const = default;

  // The members in enum order.
  std::vector<Oracle> members() const;

  class iterator;
  iterator begin() const;
  iterator end() const;

 private:
  static constexpr std::uint16_t bit(Oracle o) {
    return static_cast<std::uint16_t>(1u << static_cast<int>(o));
  }
  std::uint16_t bits_ = 0;
};

class OracleSet::iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Oracle;
  using difference_type = std::ptrdiff_t;
  using pointer = const Oracle*;
  using reference = Oracle;

  Oracle operator*() const { return static_cast<Oracle>(at_); }
  iterator& operator++() {
    at_ = next(at_ + 1);
    return *this;
  }
  bool operator==(const iterator&) const = default;

 private:
  friend class OracleSet;
  iterator(std::uint16_t bits, int at) : bits_(bits), at_(next(at)) {}
  int next(int from) const {
    while (from < kOracleCount && (bits_ & (1u << from)) == 0) ++from;
    return from;
  }
  std::uint16_t bits_;
  int at_;
};

inline OracleSet::iterator OracleSet::begin() const {
  return iterator(bits_, 0);
}
inline OracleSet::iterator OracleSet::end() const {
  return iterator(bits_, kOracleCount);
}

// "tsan,invariants,linearizability" (members in enum order), "none" when
// empty.
std::string to_string(OracleSet oracles);
// A comma-separated list of selectable oracles, "all" or "none". Throws
// std::invalid_argument naming an unknown or always-on oracle.
OracleSet parse_oracle_set(std::string_view list);

// True when this binary is built with ThreadSanitizer / AddressSanitizer:
// whether the tsan / asan oracle can see anything in it.
bool built_with_tsan();
bool built_with_asan();

}  // namespace racelab

#endif  // RACELAB_ORACLE_H_
