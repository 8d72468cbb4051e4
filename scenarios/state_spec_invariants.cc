// The state spec's invariants (state_spec_invariants.h). Compiled as the
// harness's bookkeeping (RACELAB_HARNESS_PATH): they read the recorded calls
// after the run, never the store.
#include "state_spec_invariants.h"

#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace racelab::state {

std::string key_list(const std::set<std::string>& keys) {
  std::string out;
  int shown = 0;
  for (const std::string& k : keys) {
    if (shown++ == 8)
      return absl::StrCat(out, ", ... (", keys.size(), " in all)");
    absl::StrAppend(&out, out.empty() ? "" : ", ", k);
  }
  return out;
}

namespace {

void add(std::string& out, const std::string& finding) {
  absl::StrAppend(&out, out.empty() ? "" : "; ", finding);
}

std::string who(const CallView& c) {
  return absl::StrCat("thread ", c.thread(), ": all()");
}

}  // namespace

std::string no_key_twice(StateStore&, const Calls& calls) {
  std::string out;
  absl::flat_hash_set<std::string_view> seen;
  for (const CallView& c : calls) {
    if (c.name() != "all") continue;
    const Entries& entries = c.result<Entries>();
    seen.clear();
    seen.reserve(entries.items.size());
    std::set<std::string> twice;
    for (const auto& [key, value] : entries.items) {
      if (!seen.insert(key).second) twice.insert(key);
    }
    if (!twice.empty()) {
      add(out, absl::StrCat(who(c), " yielded ", entries.items.size(),
                            " entries with keys twice: ", key_list(twice),
                            "; no state of a map has a key twice"));
    }
  }
  return out;
}

std::string only_set_entries(StateStore&, const Calls& calls) {
  // Every (key, value) ever written; the views point into the calls.
  absl::flat_hash_set<std::pair<std::string_view, std::string_view>> written;
  for (const CallView& c : calls) {
    if (c.name() == "set")
      written.emplace(c.arg<std::string>(0), c.arg<std::string>(1));
  }
  std::string out;
  for (const CallView& c : calls) {
    if (c.name() != "all") continue;
    std::set<std::string> unknown;
    for (const auto& [key, value] : c.result<Entries>().items) {
      if (!written.contains(
              std::pair<std::string_view, std::string_view>(key, value))) {
        unknown.insert(absl::StrCat(key, "=", value));
      }
    }
    if (!unknown.empty()) {
      add(out, absl::StrCat(who(c), " yielded entries that were never set: ",
                            key_list(unknown)));
    }
  }
  return out;
}

std::string no_stable_key_skipped(StateStore&, const Calls& calls) {
  // The keys the setup put in the map that no operation of the run may
  // remove or change: each must be in every complete all().
  absl::flat_hash_set<std::string_view> setup_keys, touched;
  for (const CallView& c : calls) {
    if (c.name() != "set" && c.name() != "erase") continue;
    const std::string& key = c.arg<std::string>(0);
    if (c.thread() != kSetupThread) {
      touched.insert(key);
    } else if (c.name() == "set") {
      setup_keys.insert(key);
    }
  }
  std::vector<std::string_view> stable;
  for (std::string_view key : setup_keys) {
    if (!touched.contains(key)) stable.push_back(key);
  }
  std::string out;
  if (stable.empty()) return out;
  absl::flat_hash_set<std::string_view> seen;
  for (const CallView& c : calls) {
    if (c.name() != "all" || c.arg<AllFlags>(0).stop_after != 0) continue;
    const Entries& entries = c.result<Entries>();
    seen.clear();
    seen.reserve(entries.items.size());
    for (const auto& [key, value] : entries.items) seen.insert(key);
    std::set<std::string> missing;
    for (std::string_view key : stable) {
      if (!seen.contains(key)) missing.emplace(key);
    }
    if (!missing.empty()) {
      add(out, absl::StrCat(who(c), " yielded ", entries.items.size(),
                            " entries but skipped keys that were in the map "
                            "for the whole run: ",
                            key_list(missing)));
    }
  }
  return out;
}

}  // namespace racelab::state
