// The state family's declarations: operations, scenarios (the seed's
// reproduction among them), and the invariants by name; see state_spec.h.
// The model's code is in state_spec_model.cc and the invariants' in
// state_spec_invariants.cc, compiled as the harness's bookkeeping is: this
// unit reads what the store hands out (all()'s references) and stays
// instrumented.
#include "state_spec.h"

#include <algorithm>
#include <random>

#include "absl/strings/str_cat.h"
#include "state_spec_invariants.h"

namespace racelab::state {

std::string to_string(const AllFlags& flags) {
  std::string out;
  if (flags.pause_each) absl::StrAppend(&out, "pause");
  if (flags.stop_after > 0)
    absl::StrAppend(&out, out.empty() ? "" : ",", "stop=", flags.stop_after);
  if (flags.write_back) absl::StrAppend(&out, out.empty() ? "" : ",", "write");
  return out;
}

AllFlags AllFlagSets::generate(Choices& c) const {
  AllFlags flags;
  flags.pause_each = c.below(2) == 0;
  flags.stop_after = c.below(4) == 0 ? 2 : 0;
  flags.write_back = c.below(4) == 0;
  return flags;
}

std::optional<AllFlags> AllFlagSets::parse(std::string_view text) const {
  AllFlags flags;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    std::string_view flag = text.substr(0, comma);
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
    if (flag == "pause") {
      flags.pause_each = true;
    } else if (flag == "write") {
      flags.write_back = true;
    } else if (flag.starts_with("stop=") && flag.size() > 5 &&
               flag.size() < 10) {
      int n = 0;
      for (char c : flag.substr(5)) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + (c - '0');
      }
      if (n == 0) return std::nullopt;
      flags.stop_after = n;
    } else {
      return std::nullopt;
    }
    if (comma != std::string_view::npos && text.empty()) return std::nullopt;
  }
  return flags;
}

std::string to_string(const Entries& entries) {
  constexpr std::size_t kShown = 8;
  std::string out = "{";
  for (std::size_t i = 0; i < entries.items.size(); ++i) {
    if (i == kShown) {
      absl::StrAppend(&out, ",... ", entries.items.size(), " entries in all");
      break;
    }
    absl::StrAppend(&out, i ? "," : "", entries.items[i].first, "=",
                    entries.items[i].second);
  }
  return out + "}";
}

namespace {

PlannedCall set(const std::string& key, const std::string& value) {
  return call("set", key, value);
}
PlannedCall all(bool pause_each = false, int stop_after = 0,
                bool write_back = false) {
  return call("all", AllFlags{pause_each, stop_after, write_back});
}

Plan seed_slow_reader(ProgramSize size) {
  Plan p;
  p.setup.push_back(set("k0", "0"));
  std::vector<PlannedCall> writer;
  // The small version still crosses a rehash (13 buckets hold 13 keys), which
  // is what reorders the buckets under the paused iterator.
  const int keys = size == ProgramSize::kFull ? 1000 : 16;
  for (int i = 0; i < keys; ++i)
    writer.push_back(set(absl::StrCat("k", i), absl::StrCat(i)));
  p.threads = {{all(/*pause_each=*/true)}, writer};
  p.finale = {all()};
  return p;
}

Plan erase_during_iteration(ProgramSize size) {
  Plan p;
  const bool full = size == ProgramSize::kFull;
  for (int i = 0; i < (full ? 4 : 2); ++i) {
    p.setup.push_back(set(absl::StrCat("stable", i), "s"));
  }
  const int keys = full ? 16 : 4;
  for (int i = 0; i < keys; ++i) {
    p.setup.push_back(set(absl::StrCat("k", i), absl::StrCat(i)));
  }
  // Full size: the reader iterates 20 times while the eraser erases every key
  // and puts it back, 20 times over, so the two overlap however late the OS
  // starts either thread. Small: one iteration, one round of erases.
  const int rounds = full ? 20 : 1;
  std::vector<PlannedCall> reader, eraser;
  for (int r = 0; r < rounds; ++r) {
    reader.push_back(all(/*pause_each=*/true));
    for (int i = 0; i < keys; ++i)
      eraser.push_back(call("erase", absl::StrCat("k", i)));
    if (r + 1 == rounds) break;
    for (int i = 0; i < keys; ++i) {
      eraser.push_back(set(absl::StrCat("k", i), absl::StrCat(i)));
    }
  }
  p.threads = {reader, eraser};
  p.finale = {all()};
  return p;
}

// The same size in both modes: with fewer keys the callback's inserts do not
// trigger a rehash, which is what breaks the buggy iteration.
Plan reentrant_yield(ProgramSize /*size*/) {
  Plan p;
  for (int i = 0; i < 8; ++i)
    p.setup.push_back(set(absl::StrCat("k", i), absl::StrCat(i)));
  p.threads = {{all(/*pause_each=*/false, /*stop_after=*/0,
                    /*write_back=*/true)}};
  p.finale = {all()};
  return p;
}

// A random program: 2-4 threads of 1-8 operations over three keys.
Plan generated(std::uint64_t seed, ProgramSize /*size*/) {
  std::mt19937_64 rng(seed);
  auto below = [&](int n) {
    return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
  };
  Plan p;
  p.setup = {set("k0", "v0"), set("k1", "v1")};
  const int threads = 2 + below(3);
  for (int t = 0; t < threads; ++t) {
    std::vector<PlannedCall> calls;
    const int count = 1 + below(8);
    for (int i = 0; i < count; ++i) {
      std::string key = absl::StrCat("k", below(3));
      const int kind = below(10);
      if (kind < 4) {
        calls.push_back(set(key, absl::StrCat("v", t, ".", i)));
      } else if (kind < 5) {
        calls.push_back(call("get", key));
      } else if (kind < 7) {
        calls.push_back(call("erase", key));
      } else {
        const bool pause_each = below(2) == 0;
        const int stop_after = below(4) == 0 ? 2 : 0;
        calls.push_back(all(pause_each, stop_after));
      }
    }
    p.threads.push_back(std::move(calls));
  }
  p.finale = {all()};
  return p;
}

}  // namespace

StateSpec state_spec() {
  const auto keys = values("k0", "k1", "k2");
  return StateSpec("state")
      .op(
          "set",
          [](auto& s, const std::string& key, const std::string& value) {
            s.set(key, value);
          },
          keys, values("v0", "v1"))
      .op(
          "get", [](auto& s, const std::string& key) { return s.get(key); },
          keys)
      .op(
          "erase", [](auto& s, const std::string& key) { return s.erase(key); },
          keys)
      .op(
          "all",
          [](StateStore& s, CallContext& ctx, const AllFlags& flags) {
            Entries out;
            s.all([&](const std::string& key, const std::string& value) {
              // Reads through the references the store handed out.
              out.items.emplace_back(key, value);
              if (flags.write_back && !key.ends_with('\''))
                ctx.nested("set", key + "'", value);
              if (flags.pause_each) ctx.pause();
              return flags.stop_after == 0 ||
                     static_cast<int>(out.items.size()) < flags.stop_after;
            });
            return out;
          },
          AllFlagSets{},
          judged_by(
              [](MapModel& m, const AllFlags& flags, const Entries& entries) {
                return m.may_yield(flags, entries);
              }))
      .without_random_scenario()
      .scenario("seed_slow_reader", seed_slow_reader,
                "the seed's repro: one reader iterates all keys, pausing at "
                "each, while a writer sets 1000 keys")
      .scenario("erase_during_iteration", erase_during_iteration,
                "one reader iterates 20 keys, pausing at each, while a writer "
                "erases 16 of them and puts them back (20 rounds)")
      .scenario("reentrant_yield", reentrant_yield,
                "the iteration callback itself calls set() for every key it "
                "is given")
      .scenario("generated", generated,
                "random programs from the seed: 2-4 threads of 1-8 sets, gets, "
                "erases and iterations over three keys (controlled mode: pct "
                "and random run a new program in every schedule, dfs one "
                "program per search tree)",
                {Mode::kControlled})
      .invariant("no key twice", no_key_twice)
      .invariant("only set entries", only_set_entries)
      .invariant("no stable key skipped", no_stable_key_skipped);
}

}  // namespace racelab::state
