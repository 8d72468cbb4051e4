// The state spec's sequential model, the map (state_spec.h). Compiled as the
// harness's bookkeeping (RACELAB_HARNESS_PATH): the linearizability search
// steps it, and it touches nothing under test.
#include <algorithm>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "state_spec.h"

namespace racelab::state {

void MapModel::set(const std::string& key, const std::string& value) {
  entries_.set(key, value);
}

std::optional<std::string> MapModel::get(const std::string& key) const {
  const std::string* value = entries_.find(key);
  if (value == nullptr) return std::nullopt;
  return *value;
}

bool MapModel::erase(const std::string& key) { return entries_.erase(key); }

SortedKeys sorted_keys(
    const std::vector<std::pair<std::string, std::string>>& items) {
  SortedKeys keys;
  keys.reserve(items.size());
  for (const auto& [key, value] : items) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

bool MapModel::may_yield(const AllFlags& flags, const Entries& entries) const {
  const std::size_t want_size =
      flags.stop_after == 0
          ? entries_.size()
          : std::min<std::size_t>(static_cast<std::size_t>(flags.stop_after),
                                  entries_.size());
  if (entries.items.size() != want_size) return false;
  for (const auto& [k, v] : entries.items) {
    const std::string* value = entries_.find(k);
    if (value == nullptr || *value != v) return false;
  }
  const SortedKeys keys = sorted_keys(entries.items);
  return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
}

std::string to_string(const MapModel& model) {
  constexpr std::size_t kShown = 8;
  std::string out = "{";
  std::size_t n = 0;
  model.entries_.for_each([&](const std::string& k, const std::string& v) {
    if (n++ == kShown) {
      absl::StrAppend(&out, ", ... ", model.entries_.size(), " entries in all");
      return false;
    }
    absl::StrAppend(&out, n > 1 ? ", " : "", k, "=", v);
    return true;
  });
  return out + "}";
}

}  // namespace racelab::state
