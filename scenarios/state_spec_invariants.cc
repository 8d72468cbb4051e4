// The state spec's invariants (state_spec_invariants.h). Compiled as the
// harness's bookkeeping (RACELAB_HARNESS_PATH): they read the recorded calls
// after the run, never the store.
#include "state_spec_invariants.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"

namespace racelab::state {
namespace {

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

void add(std::string& out, const std::string& finding) {
  absl::StrAppend(&out, out.empty() ? "" : "; ", finding);
}

std::string who(const CallView& c) {
  return absl::StrCat("thread ", c.thread(), ": all()");
}

}  // namespace

std::string no_key_twice(StateStore&, const Calls& calls) {
  std::string out;
  for (const CallView& c : calls) {
    if (c.name() != "all") continue;
    const Entries& entries = c.result<Entries>();
    std::set<std::string> seen, twice;
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
  // Every (key, value) ever written.
  std::set<std::pair<std::string, std::string>> written;
  for (const CallView& c : calls) {
    if (c.name() == "set")
      written.emplace(c.arg<std::string>(0), c.arg<std::string>(1));
  }
  std::string out;
  for (const CallView& c : calls) {
    if (c.name() != "all") continue;
    std::set<std::string> unknown;
    for (const auto& [key, value] : c.result<Entries>().items) {
      if (!written.contains({key, value}))
        unknown.insert(absl::StrCat(key, "=", value));
    }
    if (!unknown.empty()) {
      add(out, absl::StrCat(who(c), " yielded entries that were never set: ",
                            key_list(unknown)));
    }
  }
  return out;
}

std::string no_stable_key_skipped(StateStore&, const Calls& calls) {
  // The setup's entries, and the keys some operation may remove or change
  // during the run.
  std::map<std::string, std::string> setup_state;
  std::set<std::string> touched;
  for (const CallView& c : calls) {
    if (c.name() != "set" && c.name() != "erase") continue;
    const std::string& key = c.arg<std::string>(0);
    if (c.thread() != kSetupThread) {
      touched.insert(key);
    } else if (c.name() == "set") {
      setup_state[key] = c.arg<std::string>(1);
    }
  }
  std::string out;
  for (const CallView& c : calls) {
    if (c.name() != "all" || c.arg<AllFlags>(0).stop_after != 0) continue;
    const Entries& entries = c.result<Entries>();
    std::set<std::string> seen, missing;
    for (const auto& [key, value] : entries.items) seen.insert(key);
    for (const auto& [key, value] : setup_state) {
      if (!touched.contains(key) && !seen.contains(key)) missing.insert(key);
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
