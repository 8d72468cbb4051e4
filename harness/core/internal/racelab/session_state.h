// What a Session (racelab/internal/session.h) holds: every piece of per-run
// mutable state of the engine, in one object. Each part is used by one file,
// named after it. The parts written from a sanitizer callback or from subject
// threads without locks are plain memory and atomics written only by code
// TSan does not instrument (see each part).
#ifndef RACELAB_HARNESS_SRC_SESSION_STATE_H_
#define RACELAB_HARNESS_SRC_SESSION_STATE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "racelab/go_map.h"

namespace racelab::session_internal {

// sanitizer_capture.cc: the TSan reports captured by the report hook, as
// raw data (symbolized later by take_tsan_findings).
struct CapturedReports {
  static constexpr int kMaxReports = 32;
  // TSan prints the first kPrintedReports distinct reports of a run in full;
  // the others are captured (up to kMaxReports) and counted, not printed. A
  // racy run of a store without a lock finds 50 to 70 distinct races, each
  // printed report takes milliseconds under TSan's report lock (with every
  // other thread waiting), and a run's log keeps only its first 64 KiB.
  static constexpr int kPrintedReports = 3;
  static constexpr int kMaxFrames = 24;
  static constexpr int kMaxMops = 2;
  static constexpr int kMaxThreads = 8;
  struct Mop {
    int tid;
    int size;
    int write;
    int atomic;
    int frames;
    void* trace[kMaxFrames];
  };
  struct Thread {
    int tid;
    char name[40];
  };
  struct Report {
    char description[48];
    int threads;
    Thread thread[kMaxThreads];
    int mops;
    Mop mop[kMaxMops];
    int frames;  // stack 0, for reports without memory accesses
    void* trace[kMaxFrames];
  };
  // Written only by the hook, read by take_tsan_findings() after the threads
  // that could report have been joined.
  Report reports[kMaxReports];
  std::atomic<int> count{0};  // slots claimed since the last take
  std::atomic<int> seen{0};   // reports seen in this session, in all

  // The distinct reports since the last take, told apart as TSan's own
  // suppress_equal_stacks and suppress_equal_addresses tell them apart (the
  // report's kind and the pair of access stacks; the kind and the racy
  // address range). TSan's de-duplication is per process, so racelab turns it
  // off where many runs or schedules share a process and the report hook
  // drops repeats itself, per run, before TSan prints them. Written only by
  // the hook (TSan builds and prints one report at a time), cleared by
  // take_tsan_findings().
  static constexpr int kMaxDistinct = 256;
  struct Distinct {
    std::uint64_t kind;    // hash of the report's description
    std::uint64_t stacks;  // order-independent hash of the access stacks
    std::uintptr_t begin;  // racy address range [begin, end); 0, 0 if none
    std::uintptr_t end;
  };
  Distinct distinct[kMaxDistinct];
  std::atomic<int> distinct_count{0};
  std::atomic<int> repeats{0};  // reports dropped as repeats since the take
};

// go_map.cc: the faults GoMap detected, claimed slot by slot without a lock
// (a mutex would order the faulting threads and hide their races).
struct GoMapFaults {
  static constexpr int kMaxFaults = 64;
  struct Slot {
    GoMapFault fault;
    const char* where;
  };
  Slot slots[kMaxFaults];
  std::atomic<int> count{0};
};

// stress_runner.cc: the subject threads running now (a nudge needs another
// thread to let in) and the jitter settings of the current run.
struct StressState {
  std::atomic<int> running_threads{0};
  std::atomic<int> stepping_aside{0};  // threads waiting in a nudge
  std::atomic<bool> jitter{false};
  std::atomic<std::uint64_t> jitter_seed{0};
};

// controlled_runner.cc: the logical clock of operation histories.
struct ControlledState {
  std::atomic<std::uint64_t> clock{0};
};

struct State {
  CapturedReports reports;
  GoMapFaults go_map;
  StressState stress;
  ControlledState controlled;
};

// The current session's state: the live Session's, else the process
// default's. Safe from a sanitizer callback (one relaxed atomic load).
State& current();

}  // namespace racelab::session_internal

#endif  // RACELAB_HARNESS_SRC_SESSION_STATE_H_
