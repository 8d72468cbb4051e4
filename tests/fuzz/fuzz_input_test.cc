// Tests of the fuzz input format and its machinery: decoding is total (random
// byte strings never throw and always give a program of the family's spec in
// the fuzz domain), bytes decode to the calls the format names,
// encoding inverts decoding, ByteStrategy follows its bytes and then the
// fallback, and the scheduler's switch observer sees every decision.
#include "fuzz_input.h"

#include <gtest/gtest.h>

#include <any>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "checkpoint_spec.h"
#include "coverage_under_tsan.h"
#include "interleaving_coverage.h"
#include "racelab/internal/controlled_runner.h"
#include "racelab/internal/sched/scheduler.h"
#include "racelab/spec.h"
#include "racelab/sync.h"
#include "state_spec.h"

namespace racelab::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The fuzz preset compiles this test with coverage too: fibers bumping the
// same coverage counters are no race of interest (see coverage_under_tsan.h).
const bool kCoverageTolerated = [] {
  tolerate_coverage_writes();
  return true;
}();

Bytes random_bytes(std::mt19937_64& rng) {
  Bytes b(rng() % 200);
  for (auto& x : b) x = static_cast<std::uint8_t>(rng());
  return b;
}

const SpecRef& checkpoints() {
  static const SpecRef* spec = new SpecRef(checkpoint::checkpoint_spec());
  return *spec;
}
const SpecRef& states() {
  static const SpecRef* spec = new SpecRef(state::state_spec());
  return *spec;
}

TEST(FuzzInputTest, DecodingIsTotalAndStaysInTheDomain) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    Bytes b = random_bytes(rng);
    auto c = decode_checkpoint_input(b.data(), b.size());
    auto s = decode_state_input(b.data(), b.size());
    for (const auto* threads : {&c.program.threads, &s.program.threads}) {
      ASSERT_GE(threads->size(), 2u);
      ASSERT_LE(threads->size(), 4u);
      for (const auto& calls : *threads) {
        ASSERT_GE(calls.size(), 1u);
        ASSERT_LE(calls.size(), 8u);
      }
    }
    for (const auto& calls : s.program.threads) {
      for (const PlannedCall& call : calls) {
        if (call.name == "all") {
          ASSERT_FALSE(std::any_cast<state::AllFlags>(call.args[0]).write_back);
        }
      }
    }
    // Every call is one the spec declares, and the program text of both is
    // valid schedule-file text that reads back as itself.
    auto lines = spec_program_text(checkpoints(), c.program);
    ASSERT_EQ(reread_spec_program(checkpoints(), lines), lines);
    auto state_lines = spec_program_text(states(), s.program);
    ASSERT_EQ(reread_spec_program(states(), state_lines), state_lines);
    // Encoding gives the input back (up to unused bits of the setup byte
    // and of the operation bytes): decoding it again gives the same program.
    Bytes again = encode_checkpoint_input(c.selector, c.program, c.schedule);
    auto c2 = decode_checkpoint_input(again.data(), again.size());
    ASSERT_EQ(spec_program_text(checkpoints(), c2.program), lines);
    ASSERT_EQ(c2.schedule, c.schedule);
    Bytes state_again = encode_state_input(s.selector, s.program, s.schedule);
    auto s2 = decode_state_input(state_again.data(), state_again.size());
    ASSERT_EQ(spec_program_text(states(), s2.program), state_lines);
  }
}

TEST(FuzzInputTest, BytesDecodeToTheOperationsTheFormatNames) {
  // selector, setup (a and c), 2 threads; thread 0: commit(b), lookup(a,last),
  // index(d,pause); thread 1: lookup(c,2); then one schedule byte.
  const Bytes b = {0, 0b0101, 0, 2, 0x04, 0x32, 0x1f, 0, 0x2a, 1};
  auto c = decode_checkpoint_input(b.data(), b.size());
  EXPECT_EQ(spec_program_text(checkpoints(), c.program),
            (std::vector<std::string>{
                "commit(a,setup); commit(c,setup)",
                "commit(b,p0.0); lookup(a,last); index(d,pause)", "lookup(c,2)",
                "index(a); lookup(a,0); index(b); lookup(b,0); index(c); "
                "lookup(c,0); index(d)"}));
  EXPECT_EQ(c.schedule, Bytes{1});
  // State: setup k1; thread 0: set(k2), all(pause,stop=2); thread 1:
  // erase(k3), get(k0).
  const Bytes s_bytes = {0, 0b0010, 0, 1, 0x08, 0x17, 1, 0x0e, 0x01};
  auto s = decode_state_input(s_bytes.data(), s_bytes.size());
  EXPECT_EQ(
      spec_program_text(states(), s.program),
      (std::vector<std::string>{"set(k1,s)", "set(k2,v0.0); all(pause,stop=2)",
                                "erase(k3); get(k0)", "all()"}));
}

TEST(FuzzInputTest, EmptyInputIsAProgram) {
  auto c = decode_checkpoint_input(nullptr, 0);
  EXPECT_EQ(c.program.threads.size(), 2u);
  EXPECT_TRUE(c.schedule.empty());
  auto s = decode_state_input(nullptr, 0);
  EXPECT_EQ(s.program.threads.size(), 2u);
  EXPECT_EQ(s.program.finale.size(), 1u);
}

TEST(FuzzInputTest, EncoderRejectsProgramsOutsideTheDomain) {
  Plan p;
  p.threads = {{call("set", "k9", "v0.0")}, {call("get", "k0")}};
  EXPECT_THROW(encode_state_input(0, p, {}), std::invalid_argument);
  p.threads = {{call("get", "k0")}};
  EXPECT_THROW(encode_state_input(0, p, {}), std::invalid_argument);
  // An argument of another type than the spec declares.
  p.threads = {{call("get", "k0")}, {call("all", true)}};
  EXPECT_THROW(encode_state_input(0, p, {}), std::invalid_argument);
  p.threads = {{call("commit", "a", "p0.0")},
               {call("lookup", "a", checkpoint::LookupId{7})}};
  EXPECT_THROW(encode_checkpoint_input(0, p, {}), std::invalid_argument);
}

TEST(ByteStrategyTest, FollowsBytesThenFallsBack) {
  ByteStrategy s({1, 5, 0});
  s.begin_schedule(3);
  EXPECT_EQ(s.pick({0, 1, 2}, 0), 1);  // 1 % 3
  EXPECT_EQ(s.pick({0, 2}, 2), 2);     // 5 % 2 = 1 -> enabled[1]
  EXPECT_EQ(s.pick({1, 2}, 2), 1);     // 0 -> enabled[0]
  EXPECT_EQ(s.pick({0, 1, 2}, 2), 2);  // out of bytes: current goes on
  EXPECT_EQ(s.pick({0, 1}, 2), 0);     // current not enabled: lowest
  s.begin_schedule(3);
  EXPECT_EQ(s.pick({0, 1, 2}, -1), 1);  // starts over
}

struct Seen {
  std::vector<sched::SwitchEvent> events;
  std::vector<std::string> from_sites, to_sites;
};

void record(const sched::SwitchEvent& e, void* context) {
  auto* seen = static_cast<Seen*>(context);
  seen->events.push_back(e);
  seen->from_sites.emplace_back(e.from_site);
  seen->to_sites.emplace_back(e.to_site);
}

TEST(SwitchObserverTest, SeesEveryDecisionAndItsPreemptions) {
  sched::ControlledScheduler scheduler(
      sched::SchedulerOptions{.substrate = sched::Substrate::kFibers});
  Seen seen;
  scheduler.set_switch_observer(&record, &seen);
  std::vector<std::function<void()>> threads = {
      [] { yield_point("a"); },
      [] { yield_point("b"); },
  };
  ByteStrategy strategy({0, 1, 0, 1});
  sched::RunResult run = scheduler.run(threads, strategy);
  ASSERT_EQ(seen.events.size(), run.decisions.size());
  int preemptions = 0;
  for (std::size_t i = 0; i < seen.events.size(); ++i) {
    EXPECT_EQ(seen.events[i].to_thread, run.decisions[i]);
    preemptions += seen.events[i].preemption;
  }
  EXPECT_EQ(preemptions, run.preemptions);
  EXPECT_EQ(seen.from_sites.front(), "start");
  EXPECT_EQ(seen.events.front().from_thread, -1);
  // Decision 1: thread 0 at "a", switched to thread 1, which has not started.
  EXPECT_EQ(seen.from_sites[1], "a");
  EXPECT_EQ(seen.to_sites[1], "start");
  EXPECT_TRUE(seen.events[1].preemption);
  scheduler.set_switch_observer(nullptr);
  seen.events.clear();
  ByteStrategy again({});
  scheduler.run(threads, again);
  EXPECT_TRUE(seen.events.empty());
}

TEST(InterleavingCoverageTest, CountsPreemptionPairs) {
  sched::ControlledScheduler scheduler(
      sched::SchedulerOptions{.substrate = sched::Substrate::kFibers});
  std::vector<std::function<void()>> threads = {
      [] {
        yield_point("op");
        yield_point("x");
      },
      [] {
        yield_point("op");
        yield_point("y");
      },
  };
  int before = 0;
  for (std::size_t i = 0; i < kInterleavingCounters; ++i)
    before += interleaving_counters()[i];
  {
    InterleavingCoverage coverage({{"commit"}, {"lookup"}}, true);
    coverage.attach(scheduler);
    ByteStrategy strategy({0, 1, 0, 1, 0, 1, 0, 1});
    sched::RunResult run = scheduler.run(threads, strategy);
    EXPECT_EQ(coverage.preemptions(), run.preemptions);
    EXPECT_GT(run.preemptions, 0);
  }
  int after = 0;
  for (std::size_t i = 0; i < kInterleavingCounters; ++i)
    after += interleaving_counters()[i];
  EXPECT_GT(after, before);
}

}  // namespace
}  // namespace racelab::fuzz
