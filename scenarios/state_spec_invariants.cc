// The state runs' invariants (state_spec_invariants.h). Compiled as the
// harness's bookkeeping (RACELAB_HARNESS_PATH): they read the recorded calls
// after the run, never the store.
#include "state_spec_invariants.h"

#include <algorithm>
#include <set>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "state_spec.h"

namespace racelab::state {
namespace {

// One call of a finished run. The views point into the recorded history,
// which outlives them.
struct StateCallView {
  enum class Kind { kSet, kErase, kAll, kOther };
  Kind kind = Kind::kOther;
  int thread = 0;               // kSetupThread for setup calls
  std::string_view key, value;  // set: both; erase: the key
  // all(): what it yielded, and whether it ran to the end (no stop_after).
  const std::vector<std::pair<std::string, std::string>>* entries = nullptr;
  bool complete = false;
};

using WrittenEntries =
    absl::flat_hash_set<std::pair<std::string_view, std::string_view>>;

// The keys as a finding shows them: sorted, comma-separated, the first eight
// and then how many there are in all.
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

// Every (key, value) some set() of the run wrote.
WrittenEntries written_entries(std::span<const StateCallView> calls) {
  WrittenEntries written;
  for (const StateCallView& c : calls) {
    if (c.kind == StateCallView::Kind::kSet) written.emplace(c.key, c.value);
  }
  return written;
}

// The keys the setup put in the map that no operation of the run removes or
// changes: every complete all() must yield them.
std::vector<std::string_view> stable_keys(
    std::span<const StateCallView> calls) {
  absl::flat_hash_set<std::string_view> setup_keys, touched;
  for (const StateCallView& c : calls) {
    if (c.kind != StateCallView::Kind::kSet &&
        c.kind != StateCallView::Kind::kErase)
      continue;
    if (c.thread != kSetupThread) {
      touched.insert(c.key);
    } else if (c.kind == StateCallView::Kind::kSet) {
      setup_keys.insert(c.key);
    }
  }
  std::vector<std::string_view> stable;
  for (std::string_view key : setup_keys) {
    if (!touched.contains(key)) stable.push_back(key);
  }
  return stable;
}

std::string who(const StateCallView& c) {
  return absl::StrCat("thread ", c.thread, ": all()");
}

// What the all() `call` broke, or "".
std::string keys_twice(const StateCallView& call) {
  const SortedKeys keys = sorted_keys(*call.entries);
  std::set<std::string> twice;
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] == keys[i - 1]) twice.emplace(keys[i]);
  }
  if (twice.empty()) return "";
  return absl::StrCat(who(call), " yielded ", call.entries->size(),
                      " entries with keys twice: ", key_list(twice),
                      "; no state of a map has a key twice");
}

std::string entries_never_set(const StateCallView& call,
                              const WrittenEntries& written) {
  std::set<std::string> unknown;
  for (const auto& [key, value] : *call.entries) {
    if (!written.contains(
            std::pair<std::string_view, std::string_view>(key, value)))
      unknown.insert(absl::StrCat(key, "=", value));
  }
  if (unknown.empty()) return "";
  return absl::StrCat(
      who(call), " yielded entries that were never set: ", key_list(unknown));
}

std::string stable_keys_skipped(const StateCallView& call,
                                std::span<const std::string_view> stable) {
  if (!call.complete || stable.empty()) return "";
  const SortedKeys seen = sorted_keys(*call.entries);
  std::set<std::string> missing;
  for (std::string_view key : stable) {
    if (!std::binary_search(seen.begin(), seen.end(), key))
      missing.emplace(key);
  }
  if (missing.empty()) return "";
  return absl::StrCat(who(call), " yielded ", call.entries->size(),
                      " entries but skipped keys that were in the map for "
                      "the whole run: ",
                      key_list(missing));
}

// The spec's calls as the invariants read them (on the stack for a program
// of the usual size).
using Views = absl::InlinedVector<StateCallView, 32>;
Views views_of(const Calls& calls) {
  Views views;
  views.reserve(calls.size());
  for (const CallView& c : calls) {
    StateCallView v;
    v.thread = c.thread();
    if (c.name() == "set") {
      v.kind = StateCallView::Kind::kSet;
      v.key = c.arg<std::string>(0);
      v.value = c.arg<std::string>(1);
    } else if (c.name() == "erase") {
      v.kind = StateCallView::Kind::kErase;
      v.key = c.arg<std::string>(0);
    } else if (c.name() == "all") {
      v.kind = StateCallView::Kind::kAll;
      v.entries = &c.result<Entries>().items;
      v.complete = c.arg<AllFlags>(0).stop_after == 0;
    }
    views.push_back(v);
  }
  return views;
}

// Runs `check` on every all() of the run; the findings joined with "; ".
template <class Check>
std::string over_all_calls(std::span<const StateCallView> views, Check check) {
  std::string out;
  for (const StateCallView& c : views) {
    if (c.kind != StateCallView::Kind::kAll) continue;
    const std::string finding = check(c);
    if (!finding.empty())
      absl::StrAppend(&out, out.empty() ? "" : "; ", finding);
  }
  return out;
}

}  // namespace

std::string no_key_twice(const Calls& calls) {
  return over_all_calls(views_of(calls), keys_twice);
}

std::string only_set_entries(const Calls& calls) {
  const Views views = views_of(calls);
  const WrittenEntries written = written_entries(views);
  return over_all_calls(views, [&](const StateCallView& c) {
    return entries_never_set(c, written);
  });
}

std::string no_stable_key_skipped(const Calls& calls) {
  const Views views = views_of(calls);
  const std::vector<std::string_view> stable = stable_keys(views);
  return over_all_calls(views, [&](const StateCallView& c) {
    return stable_keys_skipped(c, stable);
  });
}

}  // namespace racelab::state
