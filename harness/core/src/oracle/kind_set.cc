// Sets of finding kinds and their text form.
#include "racelab/kind_set.h"

#include <algorithm>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace racelab {

std::vector<FindingKind> KindSet::members() const {
  std::vector<FindingKind> out;
  for (FindingKind k : all_finding_kinds()) {
    if (contains(k)) out.push_back(k);
  }
  return out;
}

bool KindSet::operator<(const KindSet& other) const {
  const std::vector<FindingKind> a = members();
  const std::vector<FindingKind> b = other.members();
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(), [](FindingKind x, FindingKind y) {
        return std::string_view(to_string(x)) < std::string_view(to_string(y));
      });
}

std::string to_string(const KindSet& kinds) {
  if (kinds.empty()) return "clean";
  return absl::StrJoin(
      kinds.members(), "+",
      [](std::string* out, FindingKind k) { out->append(to_string(k)); });
}

std::optional<KindSet> parse_kind_set(std::string_view text) {
  if (text == "clean") return KindSet{};
  KindSet set;
  for (absl::string_view word :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '+')) {
    std::optional<FindingKind> k =
        parse_finding_kind(std::string_view(word.data(), word.size()));
    if (!k) return std::nullopt;
    set.insert(*k);
  }
  return set;
}

}  // namespace racelab
