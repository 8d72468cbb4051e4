// The channel between `racelab explore -- ./program` and one run of the
// program: a shared memory file the parent creates and passes by descriptor
// (environment variable RACELAB_PROGRAM_CHANNEL), which the program's
// racelab::runtime maps before any static constructor of the program runs.
// The strategy stays in racelab: the program's scheduler asks it for every
// decision through the mailbox (remote_strategy.h), so every strategy of the
// engine (dfs and its partial-order reduction included) and the shrinking
// reruns drive a whole program as they drive the catalog. The parent writes
// the run's limits and which descriptor takes the sanitizer's reports; the
// program writes its decisions and its trace as it makes them (so a crash or
// a hang still tells how far the schedule got), then how the run ended. The
// runtime also marks the program's ELF file (kRuntimeSection), so that racelab
// can refuse a program without it before running anything.
#ifndef RACELAB_PROGRAM_CHANNEL_H_
#define RACELAB_PROGRAM_CHANNEL_H_

#include <cstddef>
#include <cstdint>

namespace racelab::program_channel {

inline constexpr const char* kEnvironmentVariable = "RACELAB_PROGRAM_CHANNEL";

// The ELF section racelab::runtime puts in every program that links it, and
// what it holds: racelab reads it from the file, never by running it.
inline constexpr const char* kRuntimeSection = ".racelab_runtime";
inline constexpr const char kRuntimeMark[] = "racelab-runtime 4";

enum class Status : std::int32_t {
  kRunning = 0,      // not ended (or the program died)
  kCompleted = 1,    // main returned or called exit; the process exits next
  kDeadlock = 2,     // every thread blocked: text holds the wait-for cycle
  kStepLimit = 3,    // a livelock: text holds its evidence
  kError = 4,        // the channel or the replay was unusable: text says why
  kLengthLimit = 5,  // cut at racelab's length limit: inconclusive
};

// A thread that blocked in the kernel outside every scheduling point, whose
// turn the runtime ended (sched::UnmodelledBlock): a note, not a finding.
struct BlockNote {
  static constexpr std::size_t kWhereBytes = 512;
  std::int32_t thread;
  std::int32_t step;
  char where[kWhereBytes];  // NUL-terminated
};

// Where the program's scheduler and racelab's strategy meet. The program
// writes a batch of records into `words` (sched::Strategy calls in the order
// the scheduler made them: begin, step finished, next accesses, pick, end),
// sets `size` and bumps `request`; racelab plays them on its strategy, writes
// the answer of the last one (the thread or store picked; whether more
// schedules remain) and bumps `answer` to the same number. Both counters are
// futex words on the shared file.
struct Mailbox {
  // Room for a pick or the next accesses of kMaxLiveProgramThreads
  // (scheduler.h) threads: 2^16 threads of four words each, and the heads.
  // The file is sparse: a batch only touches the words it fills.
  static constexpr int kWords = (1 << 18) + 64;
  enum Record : std::int64_t {
    kBegin = 1,         // thread_count
    kStepFinished = 2,  // thread, n, n x (object kind, object, access)
    // threads, n, n x (thread, object kind, object, access): the threads
    // whose next access is not none (the others', up to `threads`, are).
    kNextAccesses = 3,
    kPick = 4,       // current, n, n x enabled thread
    kEnd = 5,        //
    kPickValue = 6,  // n stores (Strategy::pick_value)
  };
  std::uint32_t request;
  std::uint32_t answer;
  std::int32_t size;          // words of the batch
  std::int32_t answer_value;  // the last record's answer
  // racelab's strategy could not follow the batch (a replay that names a
  // thread that is not enabled): the run ends with Status::kError and the
  // text says why.
  std::int32_t failed;
  // Set by racelab before the program starts: whether its strategy wants
  // the threads' next accesses (Strategy::wants_next_accesses); when it does
  // not, the program sends none.
  std::int32_t wants_next_accesses;
  std::int64_t words[kWords];
};

struct Channel {
  static constexpr std::uint32_t kMagic = 0x37434c52;  // "RLC7"
  static constexpr int kMaxDecisions = 1 << 20;
  static constexpr std::size_t kTextBytes = std::size_t{1} << 20;
  static constexpr std::size_t kTraceBytes = std::size_t{1} << 22;
  static constexpr int kMaxBlockNotes = 16;
  // The file is sparse: what no run writes costs no memory.
  static constexpr std::size_t kStacksBytes = std::size_t{1} << 24;

  // Written by the parent before the program starts.
  std::uint32_t magic;
  std::int32_t max_steps;
  std::int32_t spin_bound;
  std::int32_t memory_model;   // sched::SchedulerOptions::memory_model
  std::int32_t records_trace;  // sched::Strategy::records_trace
  // The descriptor the sanitizer writes its reports to (a pipe the parent
  // reads), never the program's stderr; -1: leave them where they go.
  std::int32_t report_fd;
  // `racelab replay --stacks`: at every decision the running thread's call
  // stack goes into `stacks`.
  std::int32_t want_stacks;

  // Written by the program.
  std::uint64_t heartbeat;  // decisions made
  std::int32_t count;
  std::int32_t decisions[kMaxDecisions];
  std::int32_t status;   // a Status, written last (release)
  std::int32_t threads;  // logical threads the run created, main included
  std::int32_t preemptions;
  std::int32_t fairness_cut;  // sched::RunResult::fairness_cut
  std::uint64_t text_size;
  char text[kTextBytes];  // the deadlock report or the error
  // The trace, as sched::encode_trace_rows writes it, streamed at every
  // decision (so that a run that crashes still tells it): whole rows only,
  // up to kTraceBytes.
  std::uint64_t trace_size;
  char trace[kTraceBytes];
  // Unmodelled blocks, written as they happen (so a crash or a hang later in
  // the run still tells of them): how many, and the first kMaxBlockNotes.
  std::int32_t block_count;
  BlockNote blocks[kMaxBlockNotes];
  // With want_stacks: one paragraph per decision, up to kStacksBytes.
  std::uint64_t stacks_size;
  char stacks[kStacksBytes];

  Mailbox mailbox;
};

// `racelab replay FILE --debug`: the program replays the schedule by itself
// under a debugger, with no racelab process to ask. racelab writes this
// header and the decisions after it into a memory file whose descriptor the
// program inherits (environment variable kReplayVariable); the runtime
// follows them and calls racelab_failing_step() at the last one, where the
// debugger stops.
inline constexpr const char* kReplayVariable = "RACELAB_REPLAY_FD";
struct ReplayHeader {
  static constexpr std::uint32_t kMagic = 0x32504c52;  // "RLP2"
  std::uint32_t magic;
  std::int32_t max_steps;
  std::int32_t spin_bound;
  std::int32_t memory_model;
  std::int32_t count;  // decisions (int32) after the header
};

// The fork server (`racelab explore --fork-server`): the program is started
// once, with the channel and a SOCK_SEQPACKET socket whose descriptor is in
// kForkServerVariable. Its runtime stops where main would start, before any
// thread of the run exists, and sends a ForkServerHello: ready, or why the
// process cannot be copied there (threads a static constructor started, a
// descriptor it opened). Ready, it waits for a ForkServerGo per schedule,
// which carries the schedule's stdout, stderr and report pipes (SCM_RIGHTS),
// forks, and sends two ForkServerWord messages: the copy's pid (or -errno),
// then, once the copy and every process below it have ended, the copy's
// wait status. The copy runs main under the channel as a fresh process
// would. The end of racelab's socket ends the server.
inline constexpr const char* kForkServerVariable = "RACELAB_FORK_SERVER";
struct ForkServerHello {
  static constexpr std::uint32_t kMagic = 0x31534652;  // "RFS1"
  static constexpr std::size_t kWhyBytes = 512;
  std::uint32_t magic;
  std::int32_t ready;   // 1: the server waits for ForkServerGo
  char why[kWhyBytes];  // when not ready, NUL-terminated
};
struct ForkServerGo {
  static constexpr std::uint32_t kMagic = 0x31474652;  // "RFG1"
  std::uint32_t magic;  // and three descriptors: stdout, stderr, reports
};
using ForkServerWord = std::int32_t;

}  // namespace racelab::program_channel

#endif  // RACELAB_PROGRAM_CHANNEL_H_
