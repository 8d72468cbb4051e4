// Blocking under the controlled scheduler: locks (block, acquire, release),
// condition variables, barriers, semaphores, futexes and static guards as
// objects, and the threads of a run (spawn, join, detach, cancel).
#include "racelab/raw_syscall.h"
#include "scheduler_core.h"

namespace racelab::sched::internal {

bool SchedulerCore::block_on(const void* lock, const char* lock_name,
                             LockMode mode, Timeout timeout) {
  const int me = enter_hook("block_on");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    start_wait(thread, Wait::kLock, timeout);
    thread.waiting_for = lock;
    thread.waiting_mode = mode;
    LockState& state = lock_state(lock, lock_name);
    add_lock_row(me, TraceKind::kLockWaited, "blocked on", state.name, mode);
    to = decide(me, "block", PointKind::kInner, lock_access(lock, mode));
  }
  // Resumed once a release made this thread runnable again and the strategy
  // picked it (the caller retries its try-lock), or, timed, picked while the
  // lock was still busy: the wait timed out (a near deadline, or a far one
  // that expire_far_deadline() reached).
  switch_away(me, to, &turn);
  return end_wait(me, Wait::kLock);
}

void SchedulerCore::acquired(const void* lock, const char* lock_name,
                             LockMode mode) {
  const int me = enter_hook("acquired");
  Turn turn(this, me);
  HarnessScope harness;
  LockState& state = lock_state(lock, lock_name);
  if (state.first_taken_at.empty()) {
    for (const void* const* site = interpose_internal::call_sites();
         *site != nullptr; ++site) {
      state.first_taken_at.push_back(*site);
    }
  }
  state.holders.push_back(Holder{me, mode});
  if (state.last_owner != me) note_run_progress();  // it changed hands
  state.last_owner = me;
  if (memory_) memory_->acquire_on(me, lock);
  add_lock_row(me, TraceKind::kLockAcquired, "acquired", state.name, mode);
}

bool SchedulerCore::holds_exclusively(const void* lock) const {
  const int me = enter_hook("holds_exclusively");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  const auto found = locks_.find(lock);
  if (found == locks_.end()) return false;
  return std::any_of(found->second.holders.begin(), found->second.holders.end(),
                     [&](const Holder& h) {
                       return h.thread == me && h.mode == LockMode::kExclusive;
                     });
}

bool SchedulerCore::held_in_run(const void* lock) const {
  const int me = enter_hook("held_in_run");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  const auto found = locks_.find(lock);
  return found != locks_.end() && !found->second.holders.empty();
}

// Back from a wait of `kind`: a waker cleared the wait, or, for a timed
// wait picked while still waiting, the wait timed out (returns true): a
// poll for the fairness bound, and time passing for the step limit.
bool SchedulerCore::end_wait(int me, Wait kind) {
  Turn turn(this, me);
  HarnessScope harness;
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  const bool timed_out = thread.wait == kind;
  // A timeout is seen only at its deadline: the run's clocks read it now.
  if (timed_out) clock_.pass_until(thread.timeout.deadline_ns);
  thread.wait = Wait::kNone;
  thread.timeout = Timeout{};
  thread.waiting_for = nullptr;
  if (timed_out) {
    note_time_passed();
    note_poll(thread);
    add_row(me, TraceKind::kSwitch, "timed out");
  }
  return timed_out;
}

int SchedulerCore::expire_far_deadline() {
  return expire_deadline(/*far_only=*/true,
                         "its deadline passes: no thread can go on before it");
}

int SchedulerCore::expire_earliest_deadline() {
  return expire_deadline(
      /*far_only=*/false,
      "its deadline passes: the threads that can run only spin");
}

int SchedulerCore::expire_deadline(bool far_only, const char* why) {
  int earliest = -1;
  for (const int t : live_) {
    const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    const bool expires =
        thread.wait != Wait::kNone &&
        (far_only
             ? thread.status == Status::kBlocked &&
                   thread.timeout.kind == TimeoutKind::kFar
             : thread.timeout.timed() && (thread.status == Status::kBlocked ||
                                          thread.status == Status::kRunnable));
    if (!expires) continue;
    if (earliest < 0 ||
        thread.timeout.deadline_ns <
            threads_[static_cast<std::size_t>(earliest)].timeout.deadline_ns) {
      earliest = t;
    }
  }
  if (earliest < 0) return -1;
  LogicalThread& thread = threads_[static_cast<std::size_t>(earliest)];
  // Still waiting (end_wait then reports the timeout), but runnable.
  thread.status = Status::kRunnable;
  thread.spin = 0;
  add_row(earliest, TraceKind::kSwitch, why);
  return earliest;
}

// In a real run time passes for every thread at once: a wait of 10 ms
// times out before a sleep of 250 ms that began with it ends, and a thread
// that can run runs within a time slice, not half a second later. So a
// thread that is still waiting (near: it can run only to time out, or to end
// its sleep) may be picked only when its deadline is no later than every
// other thread's deadline, and no more than kLatenessNs after the time since
// which each thread that can run (and does not wait) has been ready: time
// does not pass further than that while those threads have not run. A
// deadline the run's clock has passed already is free. Within the bound the
// strategy chooses, so a thread late by a time slice is explored. A thread
// taken out so is a choice taken away, as fairness takes one: such a search
// is never verified.
bool SchedulerCore::order_deadlines() {
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  // The two earliest times by which a thread must have run, and whose.
  std::int64_t first = kNone, second = kNone;
  int first_thread = -1;
  bool near = false;
  const std::int64_t elapsed = clock_.elapsed();
  const std::int64_t now = clock_.monotonic_now();
  for (const int t : live_) {
    const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    std::int64_t due;
    if (thread.status == Status::kFinished || thread.status == Status::kFree) {
      continue;
    } else if (thread.wait != Wait::kNone) {
      if (!thread.timeout.timed()) continue;  // only an event ends it
      due = thread.timeout.deadline_ns;
      near = near || thread.timeout.kind == TimeoutKind::kNear;
    } else if (thread.status == Status::kRunnable) {
      const std::int64_t late = elapsed - thread.ready_at;
      due = (now == kNone || now - late > kNone - kLatenessNs)
                ? kNone
                : now - late + kLatenessNs;
    } else {
      continue;
    }
    if (due < first) {
      second = first;
      first = due;
      first_thread = t;
    } else if (due < second) {
      second = due;
    }
  }
  if (!near) return false;
  const std::size_t before = enabled_.size();
  std::erase_if(enabled_, [&](int t) {
    const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.wait == Wait::kNone ||
        thread.timeout.kind != TimeoutKind::kNear) {
      return false;
    }
    const std::int64_t others = t == first_thread ? second : first;
    const std::int64_t deadline = thread.timeout.deadline_ns;
    return deadline > now && deadline > others;
  });
  if (enabled_.size() == before) return false;
  fairness_cut_ = true;
  return true;
}

// A robust mutex's holders that ended released it to the kernel, which marks
// it (FUTEX_OWNER_DIED) once their OS threads are gone: wait for that, so
// that the caller's real lock call finds it marked (EOWNERDEAD) whatever the
// timing, and forget them as holders.
void SchedulerCore::settle_robust_lock(const void* lock) {
  const int me = enter_hook("settle_robust_lock");
  Turn turn(this, me);
  std::vector<long> gone;
  {
    HarnessScope harness;
    LockState& state = lock_state(lock, kUnnamedMutex);
    state.robust = true;
    if (!os_threads() || state.holders.empty()) return;
    for (const Holder& holder : state.holders) {
      if (threads_[static_cast<std::size_t>(holder.thread)].status !=
          Status::kFinished) {
        return;
      }
      gone.push_back(os_[static_cast<std::size_t>(holder.thread)]->tid);
    }
    state.holders.clear();
    add_row(me, TraceKind::kOperation,
            "'" + state.name + "': its owner ended holding it (EOWNERDEAD)");
  }
  for (const long tid : gone) wait_until_gone(tid);
}

// A sleep is a wait for its deadline alone, which no event ends: far, it
// is blocked until its deadline passes as a far timeout's does; near, it
// can end whenever it is picked and no other deadline comes first
// (order_deadlines). It gives way as a yield does, lets time pass, and ends
// with the run's clocks at its end.
void SchedulerCore::sleep_until(Timeout end) {
  if (!end.timed()) {
    yield_point("sleep", PointEffect::kSleep, PointAccess::unknown(),
                PointKind::kInner);
    return;
  }
  const int me = enter_hook("sleep_until");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    note_time_passed();
    note_poll(thread);
    thread.spin = std::max(thread.spin, options_.spin_bound);
    thread.yielded = true;
    start_wait(thread, Wait::kSleep, end);
    thread.waiting_for = nullptr;
    if (end.kind == TimeoutKind::kFar) {
      add_row(me, TraceKind::kLockWaited, "sleeps (until a far deadline)");
    }
    to = decide(me, "sleep", PointKind::kInner, PointAccess::unknown());
  }
  switch_away(me, to, &turn);
  Turn again(this, me);
  HarnessScope harness;
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  thread.wait = Wait::kNone;
  thread.timeout = Timeout{};
  clock_.pass_until(end.deadline_ns);
  if (memory_) memory_->catch_up(me);  // back from a sleep, as from a yield
}

void SchedulerCore::wake_waiters_of(const void* lock) {
  bool woke = false;
  for (const int t : live_) {
    LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.wait == Wait::kLock && thread.waiting_for == lock) {
      wake(thread);
      woke = true;
    }
  }
  if (woke) note_run_progress();
}

// A lock's point is no progress when the thread takes again the lock it
// held last while another thread could have taken it in between: a poll
// under a lock (lock, look, unlock) is a spin. A lock changing hands, a
// thread alone taking its locks, and a condition-variable wait's point (its
// thread holds the lock it is about to release) are progress.
bool SchedulerCore::retakes_own_lock(int me, PointAccess access) const {
  if (access.object_kind != ObjectKind::kLock) return false;
  const auto found = locks_.find(access.object);
  if (found == locks_.end() || found->second.last_owner != me) return false;
  for (const Holder& holder : found->second.holders) {
    if (holder.thread == me) return false;  // it holds it: a wait's release
  }
  return runnable_besides(me);
}

bool SchedulerCore::runnable_besides(int me) const {
  for (const int t : live_) {
    if (t != me &&
        threads_[static_cast<std::size_t>(t)].status == Status::kRunnable) {
      return true;
    }
  }
  return false;
}

bool SchedulerCore::another_thread_can_run() const {
  const int me = enter_hook("another_thread_can_run");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  return runnable_besides(me);
}

// Eraser's lockset rule over the memory unseen code reaches: two calls of
// different threads, one of them writing, must hold a lock in common that
// one of them held exclusively, or be ordered by a thread's start or join
// (what a thread does before it starts another, or after it joined it), or
// nothing racelab sees orders them. Other orders (a flag, a queue) are not
// followed: such a search is called not exhaustive, never verified. Noted
// once a run.
void SchedulerCore::ran_unseen_code(const UnseenCall& call) {
  if (unseen_code_noted_) return;
  const int me = enter_hook("ran_unseen_code");
  Turn turn(this, me);
  HarnessScope harness;
  const int* clock = unseen_clock(me);
  const int epoch = clock == nullptr ? 0 : clock[me];
  UnseenUse mine{nullptr, me, epoch, call.writes, 0, {}};
  for (const auto& [lock, state] : locks_) {
    for (const Holder& holder : state.holders) {
      if (holder.thread == me && mine.lock_count < kUnseenLocks)
        mine.locks[mine.lock_count++] = {lock, holder.mode};
    }
  }
  auto ordered = [&](const UnseenUse& other) {
    if (clock != nullptr && other.thread < kUnseenThreads &&
        clock[other.thread] >= other.epoch) {
      return true;  // a start or a join orders it before this call
    }
    for (int i = 0; i < other.lock_count; ++i) {
      for (int j = 0; j < mine.lock_count; ++j) {
        if (other.locks[i].first == mine.locks[j].first &&
            (other.locks[i].second == LockMode::kExclusive ||
             mine.locks[j].second == LockMode::kExclusive))
          return true;
      }
    }
    return false;
  };
  auto same = [&](const UnseenUse& use) {
    if (use.thread != me || use.epoch != epoch ||
        use.writes != call.writes || use.lock_count != mine.lock_count)
      return false;
    for (int i = 0; i < use.lock_count; ++i) {
      if (use.locks[i] != mine.locks[i]) return false;
    }
    return true;
  };
  const int count = std::clamp(call.count, 0, UnseenCall::kMaxMemory);
  for (int i = 0; i < count; ++i) {
    const void* memory = call.memory[i];
    if (memory == nullptr) continue;
    bool known = false;
    for (const UnseenUse& use : unseen_uses_) {
      if (use.memory != memory) continue;
      if (same(use)) known = true;
      if (use.thread == me || !(use.writes || call.writes) || ordered(use))
        continue;
      note_unseen(me,
                  "thread %d ran %s in %s on memory thread %d also reached "
                  "there, no lock ordering the two: code no sanitizer "
                  "instruments, so a race inside it cannot be seen (the "
                  "libc++ build instruments the standard containers: "
                  "docs/libcxx.md)",
                  me, call.what, call.library, use.thread);
      return;
    }
    if (known) continue;
    if (unseen_uses_.size() >= kUnseenUses) {
      // Past what is kept, a later conflict could go unnoticed: the run
      // says it could not follow instead.
      note_unseen(me,
                  "thread %d ran %s in %s after more than %zu such uses in "
                  "the run: code no sanitizer instruments, whose order "
                  "racelab stopped following",
                  me, call.what, call.library, kUnseenUses);
      return;
    }
    mine.memory = memory;
    unseen_uses_.push_back(mine);
  }
}

void SchedulerCore::released(const void* lock, LockMode mode) {
  const int me = enter_hook("released");
  Turn turn(this, me);
  HarnessScope harness;
  auto found = locks_.find(lock);
  if (found == locks_.end()) return;  // taken before the run: not tracked
  LockState& state = found->second;
  auto holder = std::find_if(
      state.holders.begin(), state.holders.end(),
      [&](const Holder& h) { return h.thread == me && h.mode == mode; });
  if (holder == state.holders.end()) {
    holder = std::find_if(state.holders.begin(), state.holders.end(),
                          [&](const Holder& h) { return h.thread == me; });
  }
  if (holder != state.holders.end()) {
    mode = holder->mode;
    state.holders.erase(holder);
  }
  if (memory_) memory_->release_on(me, lock);
  add_lock_row(me, TraceKind::kLockReleased, "released", state.name, mode);
  LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
  thread.step.push_back(lock_access(lock, mode));
  note_store_access(thread, thread.step.back());
  // Waiters retry; those that still find the lock busy block again.
  wake_waiters_of(lock);
}

bool SchedulerCore::cond_wait(const void* cond, Timeout timeout) {
  const int me = enter_hook("cond_wait");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    start_wait(thread, Wait::kCond, timeout);
    thread.waiting_for = cond;
    thread.wait_order = ++wait_clock_;
    auto [it, inserted] = conds_.try_emplace(cond);
    if (inserted) it->second = "cond " + std::to_string(conds_.size());
    add_row(me, TraceKind::kLockWaited,
            std::string(timeout.timed() ? "waits (timed) on '" : "waits on '") +
                it->second + "'");
    const PointAccess access{ObjectKind::kCondition, cond, AccessKind::kWrite};
    thread.step.push_back(access);
    to = decide(me, "wait", PointKind::kInner, access);
  }
  switch_away(me, to, &turn);
  const bool timed_out = end_wait(me, Wait::kCond);
  model_acquire(me, cond);
  return timed_out;
}

void SchedulerCore::cond_notify(const void* cond, bool all) {
  const int me = enter_hook("cond_notify");
  Turn turn(this, me);
  HarnessScope harness;
  threads_[static_cast<std::size_t>(me)].step.push_back(
      {ObjectKind::kCondition, cond, AccessKind::kWrite});
  if (memory_) memory_->release_on(me, cond);
  std::vector<int> woken;
  for (;;) {
    int oldest = -1;
    for (const int t : live_) {
      const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
      if (thread.wait != Wait::kCond || thread.waiting_for != cond) continue;
      if (oldest < 0 ||
          thread.wait_order <
              threads_[static_cast<std::size_t>(oldest)].wait_order) {
        oldest = t;
      }
    }
    if (oldest < 0) break;
    LogicalThread& thread = threads_[static_cast<std::size_t>(oldest)];
    wake(thread);
    woken.push_back(oldest);
    if (!all) break;
  }
  if (!tracing_) return;
  std::string text = all ? "notify_all" : "notify_one";
  auto name = conds_.find(cond);
  if (name != conds_.end()) text += " '" + name->second + "'";
  if (woken.empty()) {
    text += ": no thread waits";
  } else {
    text += ": wakes thread";
    if (woken.size() > 1) text += "s";
    for (std::size_t i = 0; i < woken.size(); ++i) {
      text += (i == 0 ? " " : ", ") + std::to_string(woken[i]);
    }
  }
  add_row(me, TraceKind::kOperation, std::move(text));
}

bool SchedulerCore::spawn(pthread_t* thread, const pthread_attr_t* attr,
                          void* (*start)(void*), void* arg, int* result) {
  if (!os_threads()) return false;
  const int me = enter_hook("spawn");
  Turn turn(this, me);
  int id;
  {
    HarnessScope harness;
    const bool too_many_live =
        live_.size() >= static_cast<std::size_t>(kMaxLiveProgramThreads);
    if (too_many_live ||
        threads_.size() >= static_cast<std::size_t>(kMaxProgramThreads)) {
      const std::string limit = too_many_live
                                    ? std::to_string(kMaxLiveProgramThreads) +
                                          " threads alive at once"
                                    : std::to_string(kMaxProgramThreads) +
                                          " threads created in one run";
      add_row(me, TraceKind::kOperation,
              "pthread_create: EAGAIN (racelab's limit: " + limit + ")");
      const std::string line =
          "racelab: pthread_create fails with EAGAIN: racelab's limit of " +
          limit +
          " under controlled scheduling (a plain run has no such "
          "limit)\n";
      [[maybe_unused]] const ssize_t written =
          raw_syscall(SYS_write, STDERR_FILENO, line.data(), line.size());
      *result = EAGAIN;
      return true;
    }
    id = static_cast<int>(threads_.size());
    LogicalThread created;
    created.start = start;
    created.arg = arg;
    created.ready_at = clock_.elapsed();
    threads_.push_back(created);
    live_.push_back(id);
    unseen_spawned(me, id);
    trace_.thread_count = id + 1;
    if (memory_) memory_->spawned(me, id);
    add_row(me, TraceKind::kOperation, "creates thread " + std::to_string(id));
  }
  try {
    start_os_thread(id, attr);
  } catch (const std::exception&) {
    HarnessScope harness;
    threads_[static_cast<std::size_t>(id)].status = Status::kFinished;
    leave_live(id);
    *result = EAGAIN;
    return true;
  }
  {
    HarnessScope harness;
    *thread = os_[static_cast<std::size_t>(id)]->handle;
  }
  *result = 0;
  turn.release();
  yield_point("spawn", PointEffect::kProgress, PointAccess::unknown(),
              PointKind::kInner);
  return true;
}

bool SchedulerCore::object_wait(PointAccess object, Timeout timeout) {
  const int me = enter_hook("object_wait");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    LogicalThread& thread = threads_[static_cast<std::size_t>(me)];
    start_wait(thread, Wait::kObject, timeout);
    thread.waiting_for = object.object;
    thread.waiting_kind = object.object_kind;
    add_row(me, TraceKind::kLockWaited,
            std::string(timeout.timed() ? "waits (timed) on '" : "waits on '") +
                object_name(object) + "'");
    to = decide(me, "wait", PointKind::kInner, object);
  }
  switch_away(me, to, &turn);
  const bool timed_out = end_wait(me, Wait::kObject);
  model_acquire(me, object.object);
  return timed_out;
}

int SchedulerCore::wake_object(const void* object, int at_most) {
  const int me = enter_hook("wake_object");
  Turn turn(this, me);
  HarnessScope harness;
  if (memory_) memory_->release_on(me, object);
  std::string woken;
  int count = 0;
  for (std::size_t i = 0; i < live_.size() && count < at_most; ++i) {
    const int t = live_[i];
    LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    if (thread.wait != Wait::kObject || thread.waiting_for != object) {
      continue;
    }
    wake(thread);
    ++count;
    woken += (woken.empty() ? "" : ", ") + std::to_string(t);
  }
  if (!tracing_ || woken.empty()) return count;
  add_row(me, TraceKind::kOperation,
          "wakes '" + known_object_name(object) + "': thread " + woken);
  return count;
}

int SchedulerCore::object_waiters(const void* object) const {
  const int me = enter_hook("object_waiters");
  Turn turn(const_cast<SchedulerCore*>(this), me);
  HarnessScope harness;
  return static_cast<int>(std::count_if(live_.begin(), live_.end(), [&](int t) {
    const LogicalThread& thread = threads_[static_cast<std::size_t>(t)];
    return thread.wait == Wait::kObject && thread.waiting_for == object;
  }));
}

const std::string& SchedulerCore::object_name(PointAccess object) {
  auto [it, inserted] = objects_.try_emplace(object.object);
  if (inserted) {
    switch (object.object_kind) {
      case ObjectKind::kBarrier:
        it->second = "barrier " + std::to_string(++barriers_);
        break;
      case ObjectKind::kSemaphore:
        it->second = "semaphore " + std::to_string(++semaphores_);
        break;
      case ObjectKind::kFutex:
        it->second = "futex " + std::to_string(++futexes_);
        break;
      default:
        it->second = "static guard " + std::to_string(++guards_);
        break;
    }
  }
  return it->second;
}

// A try decides first: the point is before the look at the thread.
bool SchedulerCore::join(pthread_t thread, JoinWait wait, bool* joined,
                         Timeout timeout) {
  if (!os_threads()) return false;
  const int me = enter_hook("join");
  Turn turn(this, me);
  int target = -1;
  int to;
  bool waits = false;
  {
    HarnessScope harness;
    target = thread_of(thread);
    if (target < 0) return false;
    LogicalThread& self = threads_[static_cast<std::size_t>(me)];
    if (wait != JoinWait::kTry &&
        threads_[static_cast<std::size_t>(target)].status !=
            Status::kFinished) {
      waits = true;
      start_wait(self, Wait::kJoin,
                 wait == JoinWait::kTimed ? timeout : Timeout{});
      self.join_target = target;
      add_row(me, TraceKind::kLockWaited,
              std::string(self.timeout.timed() ? "joins (timed) thread "
                                               : "joins thread ") +
                  std::to_string(target));
    } else if (wait != JoinWait::kTry) {
      note_run_progress();
    }
    to =
        decide(me, "join", PointKind::kInner,
               {ObjectKind::kThread, thread_object(target), AccessKind::kRead});
  }
  switch_away(me, to, &turn);
  const bool timed_out = waits && end_wait(me, Wait::kJoin);
  Turn again(this, me);
  HarnessScope harness;
  const bool done =
      !timed_out &&
      threads_[static_cast<std::size_t>(target)].status == Status::kFinished;
  if (wait == JoinWait::kTry && !done) {
    note_poll(threads_[static_cast<std::size_t>(me)]);  // no progress
  }
  if (done) {
    os_[static_cast<std::size_t>(target)]->joined = true;
    unseen_joined(me, target);
  }
  if (done && memory_) memory_->acquire_on(me, thread_object(target));
  if (joined != nullptr) *joined = done;
  return true;
}

void SchedulerCore::detach(pthread_t thread) {
  if (!os_threads()) return;
  const int me = enter_hook("detach");
  Turn turn(this, me);
  HarnessScope harness;
  const int target = thread_of(thread);
  if (target >= 0) os_[static_cast<std::size_t>(target)]->detached = true;
}

// A cancellation request is the caller's point (the target can observe it);
// a target waiting at a cancellation point wakes as from a spurious wake-up,
// and the interposed wait acts on the request (pthread_testcancel).
void SchedulerCore::cancel(pthread_t thread) {
  if (!os_threads()) return;
  const int me = enter_hook("cancel");
  Turn turn(this, me);
  int to;
  {
    HarnessScope harness;
    const int target = thread_of(thread);
    if (target < 0) return;
    LogicalThread& victim = threads_[static_cast<std::size_t>(target)];
    const bool at_cancellation_point =
        victim.status != Status::kFinished &&
        (victim.wait == Wait::kCond || victim.wait == Wait::kJoin ||
         victim.wait == Wait::kSleep ||
         (victim.wait == Wait::kObject &&
          victim.waiting_kind == ObjectKind::kSemaphore));
    if (at_cancellation_point) {
      wake(victim);
    }
    add_row(me, TraceKind::kSwitch,
            "cancels thread " + std::to_string(target) +
                (at_cancellation_point ? ": wakes it" : ""));
    note_run_progress();
    to = decide(
        me, "cancel", PointKind::kInner,
        {ObjectKind::kThread, thread_object(target), AccessKind::kWrite});
  }
  switch_away(me, to, &turn);
}

}  // namespace racelab::sched::internal
