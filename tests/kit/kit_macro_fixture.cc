// A test binary as a user builds it with the kit's GoogleTest macros, driven
// by replay_through_binary.sh: a racy store whose clean tests fail (their
// message ends with the replay command), the same store expected caught, a
// store that aborts expected caught, and a locked store that is clean. Not
// registered with CTest on its own: some of its tests fail on purpose.
#include <cstdlib>
#include <mutex>
#include <string>

#include "racelab/gtest.h"
#include "racelab/spec.h"

namespace {

// A cell whose operations add under a lock, add racing, or abort.
class Cell {
 public:
  int add() {
    std::lock_guard<std::mutex> lock(mu_);
    return ++value_;
  }
  __attribute__((noinline)) int racy_add() { return ++unlocked_; }
  int abort_now() { std::abort(); }

 private:
  std::mutex mu_;
  int value_ = 0;
  int unlocked_ = 0;
};

racelab::CheckOptions small_options() {
  racelab::CheckOptions options;
  options.budget = 20;
  options.stress_runs = 2;
  options.hang_seconds = 5;
  return options;
}

using racelab::call;
using racelab::Plan;

// Two threads: one adds twice, the other adds and then does `last`; with
// `last` racy_add, both threads add without the lock.
Plan ending_in(const std::string& last) {
  const std::string first = last == "racy_add" ? "racy_add" : "add";
  return Plan{{}, {{call(first), call("add")}, {call("add"), call(last)}}, {}};
}

racelab::Spec<Cell> cell_spec(std::string name, const std::string& last) {
  return racelab::Spec<Cell>(std::move(name))
      .op("add", &Cell::add)
      .op("racy_add", &Cell::racy_add)
      .op("abort", &Cell::abort_now)
      .without_random_scenario()
      .scenario("ends_in_" + last, ending_in(last))
      .options(small_options());
}

}  // namespace

RACELAB_SPEC_TESTS(RacyCell, cell_spec("cell/racy", "racy_add"));
RACELAB_SPEC_EXPECT_CAUGHT(RacyCellCaught, cell_spec("cell/racy", "racy_add"));
RACELAB_SPEC_EXPECT_CAUGHT(AbortingCell, cell_spec("cell/aborting", "abort"));
RACELAB_SPEC_TESTS(LockedCell, cell_spec("cell/locked", "add"));
