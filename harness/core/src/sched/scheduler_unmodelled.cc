// Unmodelled blocks on OS threads: the turn word a thread claims at each hook,
// the watching thread that ends the turn of a thread blocked in the kernel
// outside every scheduling point, and the text of where it blocked.
#include <sys/uio.h>

#include "scheduler_core.h"

namespace racelab::sched::internal {

void SchedulerCore::claim(int me) {
  if (load_unseen(&watching_) == 0) return;
  for (;;) {
    while (!try_lock_unseen(&turn_)) yield_cpu();
    if (load_unseen(&generation_) != t_generation) {
      // A thread of a run that is over, back from the kernel: never runs
      // again (its run's state is gone).
      unlock_unseen(&turn_);
      set_active(nullptr);
      t_me = -1;
      t_free = nullptr;
      park_forever();
    }
    if (me < 0 || t_free == nullptr || load_unseen(t_free) == 0) {
      return;  // holds the turn
    }
    int to;
    Baton* next;
    Baton* mine;
    OsThread* os;
    {
      HarnessScope harness;
      LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
      if (thread.status != Status::kFree) return;  // holds the turn
      if (current() == kNobody) {
        // Nobody holds the baton: this thread decides, as the first one.
        thread.returned = true;
        to = decide(kToCaller, "return");
      } else {
        thread.returned = true;  // readmitted by the next decision
        to = kNobody;
      }
      next = to == kNobody || to == me ? nullptr : &baton_of(to);
      mine = &baton_of(me);
      os = os_[static_cast<std::size_t>(me)].get();
    }
    unlock_unseen(&turn_);
    if (to == me) continue;
    if (next != nullptr) next->post();
    mine->wait();
    bool abandoned;
    {
      HarnessScope harness;
      abandoned = os->abandoned;
    }
    if (abandoned) abandon_self(me);
  }
}

void* SchedulerCore::watch_main(void* core) {
  static_cast<SchedulerCore*>(core)->watch();
  return nullptr;
}

void SchedulerCore::start_watch() {
  store_unseen(&stop_watch_, 0);
  watcher_started_ =
      load_unseen(&watching_) != 0 &&
      interpose_internal::real_pthread_create(
          &watcher_, nullptr, &SchedulerCore::watch_main, this) == 0;
}

void SchedulerCore::stop_watch() {
  if (!watcher_started_) return;
  watcher_started_ = false;
  store_unseen(&stop_watch_, 1);
  wake_unseen(&stop_watch_);
  interpose_internal::real_pthread_join(watcher_, nullptr);
}

// The watching thread: see the top of scheduler_core.h. A holder is blocked
// when, at `block_polls` looks in a row, it made no decision, is outside every
// hook (the turn word is free), sleeps in the kernel ('S': a thread that is
// only slow is 'R', so load alone never counts) in a wait only a thread of
// this process can end (a futex with no time limit, a pipe whose other end
// the process holds: never the sanitizer's symbolizer, a child process or a
// timer, which end by themselves), and no other thread of the process is
// runnable (the holder may wait for it: a join of a thread that is ending,
// a thread outside the run), while another thread of the run could take its
// place. Such a wait never ends by itself, so however slowly the looks
// come, it is seen: the notes and the verdicts do not depend on load.
void SchedulerCore::watch() {
#ifdef RACELAB_SCHED_TSAN
  AnnotateThreadName(__FILE__, __LINE__, "racelab watcher");
#endif
  const long self = own_tid();
  int seen_holder = kToCaller;
  int seen_count = -1;
  int looks = 0;
  long seen_call = -1;  // the system call and its return address, unchanged
  unsigned long seen_pc = 0;
  while (load_unseen(&stop_watch_) == 0) {
    sleep_while_zero(&stop_watch_, options_.block_poll_ms);
    if (load_unseen(&stop_watch_) != 0) break;
    const int holder = current();
    const int count = load_unseen(&decision_count_);
    if (holder < 0 || holder != seen_holder || count != seen_count) {
      seen_holder = holder;
      seen_count = count;
      looks = 0;
      continue;
    }
    if (!try_lock_unseen(&turn_)) {  // the holder is in a hook
      looks = 0;
      continue;
    }
    // Only a thread another one could run in place of: a block no other
    // thread of the run can end (a wait for a child process, the network,
    // or a real hang) is left to the kernel, without a note.
    long tid = 0;
    if (current() == holder && load_unseen(&decision_count_) == count) {
      HarnessScope harness;
      if (could_run_besides(holder)) {
        tid = os_[static_cast<std::size_t>(holder)]->tid;
      }
    }
    TaskSyscall call;
    if (tid == 0 || task_state(tid) != 'S' || other_task_running(self, tid) ||
        !task_syscall(tid, &call) || !only_this_process_can_end(call) ||
        (looks > 0 && (call.number != seen_call || call.pc != seen_pc))) {
      unlock_unseen(&turn_);
      looks = 0;
      continue;
    }
    seen_call = call.number;
    seen_pc = call.pc;
    if (++looks < options_.block_polls) {
      unlock_unseen(&turn_);
      continue;
    }
    looks = 0;
    Baton* next = nullptr;
    {
      HarnessScope harness;
      const int to = take_turn_of(holder, tid);
      if (to != kNobody) next = &baton_of(to);
    }
    unlock_unseen(&turn_);
    if (next != nullptr) next->post();
  }
}

// Turn word and harness scope held. A thread that ran free and is back at a
// hook, waiting to be readmitted, can run as soon as the holder's turn ends:
// so can the threads of a barrier the holder waits at, freed when they
// arrived in an earlier round and now about to arrive again.
bool SchedulerCore::could_run_besides(int holder) const {
  if (runnable_besides(holder)) return true;
  for (int t = 0; t < static_cast<int>(threads_.size()); ++t) {
    const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (t != holder && thread.status == Status::kFree && thread.returned) {
      return true;
    }
  }
  return false;
}

namespace {

// The symbolizer's "function file:line" for a return address (or the
// address of the instruction after a system call), "" without one.
std::string symbolize(unsigned long pc) {
  if (&__sanitizer_symbolize_pc == nullptr) return "";
  char buffer[512];
  buffer[0] = '\0';
  __sanitizer_symbolize_pc(reinterpret_cast<void*>(pc - 1), "%f %L", buffer,
                           sizeof buffer);
  return buffer;
}

bool harness_frame(std::string_view frame) {
  return frame.empty() || frame.starts_with("racelab::") ||
         frame.starts_with("__interceptor") || frame.starts_with("__tsan") ||
         frame.starts_with("__sanitizer") || frame.starts_with("__asan") ||
         frame.starts_with("__ubsan") || frame.starts_with("__lsan") ||
         frame.starts_with("???") || frame.starts_with("<null>") ||
         frame.starts_with("std::") || frame.starts_with("__gnu_cxx") ||
         frame.starts_with("__libc") || frame.starts_with("__GI_") ||
         frame.find(" in ") == 0;
}

}  // namespace

// Extern: the bounds of the executable's code (the linker defines them).
extern "C" char __executable_start;  // NOLINT
extern "C" char etext;               // NOLINT

// Where the blocked thread `tid` sits: its system call, the function the
// call returns to and the first return address on its stack that lies in
// the executable's own code, outside racelab and the sanitizer (a stack
// scan: the kernel gives no frame pointer), and its last scheduling point.
std::string describe_blocked_thread(int thread, long tid, const char* site) {
  std::string text =
      "thread " + std::to_string(thread) + " blocked in the kernel";
  TaskSyscall call;
  if (task_syscall(tid, &call)) {
    const unsigned long pc = call.pc;
    const unsigned long sp = call.sp;
    const char* name = racelab::syscall_name(call.number);
    text += " (system call " +
            (name != nullptr ? std::string(name)
                             : "number " + std::to_string(call.number)) +
            ")";
    std::string at = symbolize(pc);
    if (!at.empty()) text += " in " + at;
    const auto begin = reinterpret_cast<unsigned long>(&__executable_start);
    const auto end = reinterpret_cast<unsigned long>(&etext);
    bool outside = pc < begin || pc >= end || harness_frame(at);
    if (sp != 0 && outside) {
      unsigned long words[1024];
      iovec local{words, sizeof words};
      iovec remote{reinterpret_cast<void*>(sp), sizeof words};
      const long got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
      for (long i = 0; got > 0 && i < got / static_cast<long>(sizeof(long));
           ++i) {
        if (words[i] < begin || words[i] >= end) continue;
        const std::string frame = symbolize(words[i]);
        if (harness_frame(frame)) continue;
        text += ", called from " + frame;
        break;
      }
    }
  }
  return text + ", after its scheduling point '" + site + "'";
}

// Turn word and harness scope held.
int SchedulerCore::take_turn_of(int holder, long tid) {
  LogicalThread& thread = threads_[static_cast<std::size_t>(holder)];
  thread.status = Status::kFree;
  thread.returned = false;
  store_unseen(&os_[static_cast<std::size_t>(holder)]->free, 1);
  UnmodelledBlock block;
  block.thread = holder;
  block.step = static_cast<int>(decisions_.size());
  block.where = describe_blocked_thread(holder, tid, thread.site);
  add_row(holder, TraceKind::kSwitch,
          "blocked outside racelab's view: runs free");
  if (block_observer_ != nullptr)
    block_observer_(block, block_observer_context_);
  blocks_.push_back(std::move(block));
  return decide(holder, "unmodelled block", PointKind::kInner,
                PointAccess::unknown());
}

}  // namespace racelab::sched::internal
