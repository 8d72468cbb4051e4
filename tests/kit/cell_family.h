// The test store of the kit's tests: a cell whose operations add (under a
// lock, or racing), or crash, abort, throw, exit, hang or run slowly, so
// that each way a store under test can end is one operation.
#ifndef RACELAB_TESTS_KIT_CELL_FAMILY_H_
#define RACELAB_TESTS_KIT_CELL_FAMILY_H_

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/family.h"

namespace racelab::kit_test {

// What an operation of the test store does.
enum class Act {
  kAdd,
  kRacyAdd,  // adds without the lock: a data race with any other add
  kAbort,
  kSegv,
  kThrow,
  kExit,
  kQuickExit,
  kHang,
  kHangInGroup,  // forks a process that blocks, then blocks itself
  kSlow,
  kUseAfterFree,  // reads a freed int: ASan ends the process
};

// kHangInGroup writes the pid of the process it forks here.
inline std::string g_pid_file;

struct CellOp {
  Act act = Act::kAdd;
};

struct Cell {
  std::mutex mu;
  int value = 0;
  int unlocked = 0;
};

inline int g_stores_made = 0;  // in this process: the parent's count

struct CellFamily {
  using Store = Cell;
  using Op = CellOp;
  using Result = int;
  static constexpr const char* kName = "cell";

  static int execute(Cell& cell, const CellOp& op, OpContext& ctx,
                     History<CellOp, int>*) {
    {
      std::lock_guard<std::mutex> lock(cell.mu);
      ++cell.value;
    }
    switch (op.act) {
      case Act::kAdd:
        break;
      case Act::kRacyAdd:
        return ++cell.unlocked;
      case Act::kAbort:
        std::abort();
      case Act::kSegv:
        raise(SIGSEGV);
        break;
      case Act::kThrow:
        throw std::runtime_error("the cell gave up");
      case Act::kExit:
        std::exit(3);
      case Act::kQuickExit:
        _exit(0);
      case Act::kHang: {
        // Blocked where racelab cannot see: a read nobody will answer.
        int fds[2];
        if (pipe(fds) == 0) {
          char c;
          for (;;) (void)!read(fds[0], &c, 1);
        }
        std::abort();
      }
      case Act::kHangInGroup: {
        const pid_t helper = fork();
        if (helper == 0) {
          for (;;) pause();
        }
        if (FILE* f = std::fopen(g_pid_file.c_str(), "w")) {
          std::fprintf(f, "%d\n", static_cast<int>(helper));
          std::fclose(f);
        }
        int fds[2];
        if (pipe(fds) == 0) {
          char c;
          for (;;) (void)!read(fds[0], &c, 1);
        }
        std::abort();
      }
      case Act::kUseAfterFree: {
        int* volatile freed = new int(cell.value);
        delete freed;
        return *freed;
      }
      case Act::kSlow: {
        // Slow, but each operation ends: progress. Busy (a sleep may be a
        // scheduling point of its own in controlled mode).
        const auto until =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(600);
        while (std::chrono::steady_clock::now() < until) {
        }
        ctx.pause();
        break;
      }
    }
    std::lock_guard<std::mutex> lock(cell.mu);
    return cell.value;
  }
  static std::string describe(const CellOp& op) {
    switch (op.act) {
      case Act::kAdd:
        return "add";
      case Act::kRacyAdd:
        return "racy_add";
      case Act::kAbort:
        return "abort";
      case Act::kSegv:
        return "segv";
      case Act::kThrow:
        return "throw";
      case Act::kExit:
        return "exit";
      case Act::kQuickExit:
        return "quick_exit";
      case Act::kHang:
        return "hang";
      case Act::kHangInGroup:
        return "hang_in_group";
      case Act::kSlow:
        return "slow";
      case Act::kUseAfterFree:
        return "use_after_free";
    }
    return "?";
  }
  static std::string describe(const CellOp&, int result) {
    return std::to_string(result);
  }
  static std::optional<CellOp> parse(std::string_view text) {
    for (Act act : {Act::kAdd, Act::kRacyAdd, Act::kAbort, Act::kSegv,
                    Act::kThrow, Act::kExit, Act::kQuickExit, Act::kHang,
                    Act::kHangInGroup, Act::kSlow, Act::kUseAfterFree}) {
      if (describe(CellOp{act}) == text) return CellOp{act};
    }
    return std::nullopt;
  }
  static void check_linearizability(const History<CellOp, int>&,
                                    std::vector<Finding>&) {}
};

inline std::unique_ptr<Cell> make_cell() {
  ++g_stores_made;
  return std::make_unique<Cell>();
}

// Two threads: one adds twice, the other adds and then does `last` (times
// `repeat`). With `last` racy_add, both threads add without the lock.
inline Scenario<CellFamily> scenario_ending_in(Act last, int repeat = 1) {
  Scenario<CellFamily> s;
  s.name = "ends_in_" + CellFamily::describe(CellOp{last});
  s.program = [last, repeat](std::uint64_t, ProgramSize) {
    Program<CellOp> p;
    const Act first = last == Act::kRacyAdd ? Act::kRacyAdd : Act::kAdd;
    p.threads.push_back({CellOp{first}, CellOp{Act::kAdd}});
    std::vector<CellOp> second = {CellOp{Act::kAdd}};
    for (int i = 0; i < repeat; ++i) second.push_back(CellOp{last});
    p.threads.push_back(second);
    return p;
  };
  return s;
}

}  // namespace racelab::kit_test

#endif  // RACELAB_TESTS_KIT_CELL_FAMILY_H_
