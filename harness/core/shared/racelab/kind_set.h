// A set of finding kinds: the outcome of one run ("clean", or the kinds it
// found), the key of a case's outcome histogram.
#ifndef RACELAB_KIND_SET_H_
#define RACELAB_KIND_SET_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"

namespace racelab {

class KindSet {
 public:
  KindSet() = default;
  KindSet(std::initializer_list<FindingKind> kinds) {
    for (FindingKind k : kinds) insert(k);
  }

  bool contains(FindingKind k) const { return (bits_ & bit(k)) != 0; }
  void insert(FindingKind k) { bits_ |= bit(k); }
  bool empty() const { return bits_ == 0; }
  // The members in enum order.
  std::vector<FindingKind> members() const;

  bool operator==(const KindSet&) const = default;
  // Ordered as their display reads: "clean" first, then by the members' names
  // ("data_race" < "data_race+crash" < "deadlock").
  bool operator<(const KindSet& other) const;

 private:
  static std::uint32_t bit(FindingKind k) {
    return 1u << static_cast<unsigned>(k);
  }
  std::uint32_t bits_ = 0;
};

// "clean", or the members' names in enum order joined with "+"
// ("data_race+crash"), as results.json keys a histogram.
std::string to_string(const KindSet& kinds);
// The inverse of to_string; nullopt for an unknown kind or an empty name.
std::optional<KindSet> parse_kind_set(std::string_view text);

}  // namespace racelab

#endif  // RACELAB_KIND_SET_H_
