// Tests of the watch for blocking the controlled scheduler does not model: a
// logical thread that blocks in the kernel outside every scheduling point
// (a raw read of a pipe) while it holds the baton and another thread could
// run has its turn ended for it, the others run, and the run records an
// UnmodelledBlock; a thread that is only slow (running, not sleeping), or
// that no other thread could replace, is never taken for one. Every block
// here lasts until another thread of the run ends it, so the verdicts do not
// depend on how soon the watcher looks.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "racelab/internal/sched/scheduler.h"

namespace racelab::sched {
namespace {

using Threads = std::vector<std::function<void()>>;
using Status = RunResult::Status;

SchedulerOptions os_threads() {
  SchedulerOptions options;
  options.substrate = Substrate::kOsThreads;
  return options;
}

// A pipe, closed at the end of the test.
class Pipe {
 public:
  Pipe() { EXPECT_EQ(pipe(fds_), 0); }
  ~Pipe() {
    for (int fd : fds_) {
      if (fd >= 0) close(fd);
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  void close_write_end() {
    close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
};

// Sleeps in the kernel without a scheduling point (the raw system call).
void raw_sleep(int ms) {
  const timespec pause{0, ms * 1000000L};
  syscall(SYS_nanosleep, &pause, nullptr);
}

// Reads one byte through the raw system call: racelab's read() would give
// way while the pipe is empty (interpose_fds.cc), this blocks in the kernel.
long raw_read(int fd, char* byte) { return syscall(SYS_read, fd, byte, 1); }

// Thread 0 runs first (replay with no decisions: the lowest enabled thread,
// then the current one while it can go on) and blocks reading a pipe that
// only thread 1 writes: without the watch the run never ends.
TEST(UnmodelledBlockTest, ABlockedHolderHandsTheBatonToTheOthers) {
  Pipe channel;
  char got = 0;
  Threads threads = {
      [&] { ASSERT_EQ(raw_read(channel.read_end(), &got), 1); },
      [&] { ASSERT_EQ(write(channel.write_end(), "x", 1), 1); },
  };
  ControlledScheduler scheduler(os_threads());
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(threads, first_enabled);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(got, 'x');
  ASSERT_EQ(result.unmodelled_blocks.size(), 1u);
  EXPECT_EQ(result.unmodelled_blocks[0].thread, 0);
  EXPECT_NE(result.unmodelled_blocks[0].where.find("thread 0 blocked"),
            std::string::npos)
      << result.unmodelled_blocks[0].where;
  EXPECT_NE(result.unmodelled_blocks[0].where.find("system call read"),
            std::string::npos)
      << result.unmodelled_blocks[0].where;
}

// The only thread sleeps in the kernel: no other could run in its place, so
// its turn is left to it (no note), and the run goes on when it wakes.
TEST(UnmodelledBlockTest, ASleeperNoOtherThreadCouldReplaceIsLeftAlone) {
  int after = 0;
  Threads threads = {[&] {
    raw_sleep(300);
    std::this_thread::yield();  // a scheduling point after the sleep
    after = 1;
  }};
  ControlledScheduler scheduler(os_threads());
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(threads, first_enabled);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(after, 1);
  EXPECT_TRUE(result.unmodelled_blocks.empty())
      << result.unmodelled_blocks[0].where;
}

// A raw sleep ends by itself: however long it lasts and however loaded the
// machine, it is no block, even while another thread could run.
TEST(UnmodelledBlockTest, ASleepIsNoBlock) {
  std::atomic<int> order{0};  // which thread finished first
  Threads threads = {
      [&] {
        raw_sleep(300);
        int none = 0;
        order.compare_exchange_strong(none, 1);
      },
      [&] {
        int none = 0;
        order.compare_exchange_strong(none, 2);
      },
  };
  ControlledScheduler scheduler(os_threads());
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(threads, first_enabled);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(order.load(), 1);  // thread 0 ran its turn to the end
  EXPECT_TRUE(result.unmodelled_blocks.empty())
      << result.unmodelled_blocks[0].where;
}

// A read of a pipe whose write end only another process holds ends when
// that process writes: no thread of the run could end it, so it is no
// block (the sanitizer's symbolizer and racelab's report pipe are such).
TEST(UnmodelledBlockTest, AWaitForAnotherProcessIsNoBlock) {
  Pipe channel;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    raw_sleep(300);
    _exit(syscall(SYS_write, channel.write_end(), "x", 1) == 1 ? 0 : 1);
  }
  channel.close_write_end();  // the child's alone now
  char got = 0;
  std::atomic<int> order{0};  // which thread finished first
  Threads threads = {
      [&] {
        ASSERT_EQ(raw_read(channel.read_end(), &got), 1);
        int none = 0;
        order.compare_exchange_strong(none, 1);
      },
      [&] {
        int none = 0;
        order.compare_exchange_strong(none, 2);
      },
  };
  ControlledScheduler scheduler(os_threads());
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(threads, first_enabled);
  int status = -1;
  EXPECT_EQ(waitpid(child, &status, 0), child);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_EQ(got, 'x');
  EXPECT_EQ(order.load(), 1);
  EXPECT_TRUE(result.unmodelled_blocks.empty())
      << result.unmodelled_blocks[0].where;
}

// Thread 0 holds a mutex while it blocks on the pipe; thread 1 writes the
// pipe, then waits for the mutex: every logical thread is blocked or free,
// which is no deadlock. Thread 0 comes back, releases, and the run ends.
TEST(UnmodelledBlockTest, AThreadBlockedOnALockHeldByAFreeThreadIsNoDeadlock) {
  Pipe channel;
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  int shared = 0;
  Threads threads = {
      [&] {
        pthread_mutex_lock(&mu);
        char c;
        ASSERT_EQ(raw_read(channel.read_end(), &c), 1);
        shared = 1;
        pthread_mutex_unlock(&mu);
      },
      [&] {
        ASSERT_EQ(write(channel.write_end(), "x", 1), 1);
        pthread_mutex_lock(&mu);
        shared = 2;
        pthread_mutex_unlock(&mu);
      },
  };
  ControlledScheduler scheduler(os_threads());
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(threads, first_enabled);
  EXPECT_EQ(result.status, Status::kCompleted) << result.deadlock_report;
  EXPECT_EQ(shared, 2);
  EXPECT_EQ(result.unmodelled_blocks.size(), 1u);
  pthread_mutex_destroy(&mu);
}

// A thread that computes for a while without a scheduling point is running
// ('R'), however loaded the machine: never a block.
TEST(UnmodelledBlockTest, AThreadThatOnlyComputesIsNeverABlock) {
  std::atomic<bool> spun{false};
  Threads threads = {
      [&] {
        const auto until =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
        volatile unsigned long sink = 0;
        while (std::chrono::steady_clock::now() < until) sink = sink + 1;
        spun = true;
      },
      [] {},
  };
  ControlledScheduler scheduler(os_threads());
  ReplayStrategy first_enabled({});
  const RunResult result = scheduler.run(threads, first_enabled);
  EXPECT_EQ(result.status, Status::kCompleted);
  EXPECT_TRUE(spun.load());
  EXPECT_TRUE(result.unmodelled_blocks.empty())
      << result.unmodelled_blocks[0].where;
}

// Fibers are not watched: a run with no block records none.
TEST(UnmodelledBlockTest, RunsWithoutABlockRecordNone) {
  std::atomic<int> counter{0};
  Threads threads = {[&] { ++counter; }, [&] { ++counter; }};
  for (Substrate substrate : {Substrate::kFibers, Substrate::kOsThreads}) {
    SchedulerOptions options;
    options.substrate = substrate;
    ControlledScheduler scheduler(options);
    RandomStrategy random(1);
    const RunResult result = scheduler.run(threads, random);
    EXPECT_TRUE(result.unmodelled_blocks.empty());
  }
  EXPECT_EQ(counter.load(), 4);
}

}  // namespace
}  // namespace racelab::sched
