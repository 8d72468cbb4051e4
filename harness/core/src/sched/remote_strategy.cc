// Both ends of a strategy in another process (remote_strategy.h). Compiled
// without the sanitizer: the mailbox is racelab's own traffic between two
// processes, and the program's end runs inside the scheduler's decision,
// where a sanitizer's atomic would be a scheduling point of its own.
#include "racelab/remote_strategy.h"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>

#include <algorithm>
#include <ctime>
#include <exception>
#include <string>

#include "racelab/internal/sched/scheduler.h"
#include "racelab/raw_syscall.h"

namespace racelab::sched {
namespace {

using program_channel::Mailbox;

// A record's words at most, besides its footprint or thread list: type,
// thread or current, count.
constexpr int kRecordHead = 3;
// The most stores a load may choose from (MemoryModel::kKeptStores, with
// room): a larger count is a corrupt record.
constexpr std::int64_t kMaxStores = 64;
// Words per access.
constexpr int kAccessWords = 3;

void wake(std::uint32_t* word) {
  raw_syscall(SYS_futex, word, FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

// Waits while *word == seen, for at most `ms` milliseconds.
void wait_while(std::uint32_t* word, std::uint32_t seen, long ms) {
  timespec timeout{ms / 1000, (ms % 1000) * 1000000};
  raw_syscall(SYS_futex, word, FUTEX_WAIT, seen, &timeout, nullptr, 0);
}

std::uint32_t load(const std::uint32_t* word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

}  // namespace

RemoteStrategy::RemoteStrategy(Mailbox* mailbox, bool trace)
    : mailbox_(mailbox),
      wants_next_accesses_(__atomic_load_n(&mailbox->wants_next_accesses,
                                           __ATOMIC_ACQUIRE) != 0),
      sent_(load(&mailbox->request)) {
  set_records_trace(trace);
}

void RemoteStrategy::reserve(int words) {
  if (size_ + words > Mailbox::kWords) send();
}

void RemoteStrategy::put(const PointAccess& access) {
  put(static_cast<std::int64_t>(access.object_kind));
  put(static_cast<std::int64_t>(
      reinterpret_cast<std::intptr_t>(access.object)));
  put(static_cast<std::int64_t>(access.access));
}

int RemoteStrategy::send() {
  mailbox_->size = size_;
  size_ = 0;
  const std::uint32_t number = ++sent_;
  __atomic_store_n(&mailbox_->request, number, __ATOMIC_RELEASE);
  wake(&mailbox_->request);
  for (std::uint32_t seen = load(&mailbox_->answer); seen != number;
       seen = load(&mailbox_->answer)) {
    // racelab ends the process when it stops waiting for it.
    wait_while(&mailbox_->answer, seen, 1000);
  }
  if (__atomic_load_n(&mailbox_->failed, __ATOMIC_ACQUIRE) != 0) {
    throw ScheduleError("racelab's strategy cannot follow this run");
  }
  return mailbox_->answer_value;
}

void RemoteStrategy::begin_schedule(int thread_count) {
  reserve(2);
  put(Mailbox::kBegin);
  put(thread_count);
}

void RemoteStrategy::step_finished(int thread, const Footprint& footprint) {
  // A footprint too long for the mailbox keeps its head and ends with an
  // unknown access, which depends on everything: the search may run more
  // schedules, never fewer.
  const int room = (Mailbox::kWords - kRecordHead) / kAccessWords - 1;
  const int count = std::min(static_cast<int>(footprint.size()), room);
  const bool cut = count < static_cast<int>(footprint.size());
  reserve(kRecordHead + (count + 1) * kAccessWords);
  put(Mailbox::kStepFinished);
  put(thread);
  put(count + (cut ? 1 : 0));
  for (int i = 0; i < count; ++i) put(footprint[i]);
  if (cut) put(PointAccess::unknown());
}

void RemoteStrategy::next_accesses(const std::vector<PointAccess>& by_thread) {
  // Only the threads whose next access is not none: a run may have created
  // thousands of threads that finished.
  int count = 0;
  for (const PointAccess& access : by_thread) {
    if (access.object_kind != ObjectKind::kNone) ++count;
  }
  reserve(kRecordHead + count * (kAccessWords + 1));
  put(Mailbox::kNextAccesses);
  put(static_cast<std::int64_t>(by_thread.size()));
  put(count);
  for (std::size_t t = 0; t < by_thread.size(); ++t) {
    if (by_thread[t].object_kind == ObjectKind::kNone) continue;
    put(static_cast<std::int64_t>(t));
    put(by_thread[t]);
  }
}

// A pick with one thread enabled has one answer: it waits in the mailbox
// with the batch (racelab's strategy plays it in order, and a strategy that
// answers otherwise, a replay that cannot be followed, fails the next send),
// so a forced decision costs no round trip.
int RemoteStrategy::pick(const std::vector<int>& enabled, int current) {
  reserve(kRecordHead + static_cast<int>(enabled.size()));
  put(Mailbox::kPick);
  put(current);
  put(static_cast<std::int64_t>(enabled.size()));
  for (int thread : enabled) put(thread);
  if (enabled.size() == 1) return enabled.front();
  return send();
}

int RemoteStrategy::pick_value(int count) {
  reserve(kRecordHead);
  put(Mailbox::kPickValue);
  put(count);
  return send();
}

bool RemoteStrategy::end_schedule() {
  reserve(1);
  put(Mailbox::kEnd);
  return send() != 0;
}

StrategyServer::StrategyServer(Mailbox* mailbox, Strategy* strategy)
    : mailbox_(mailbox), strategy_(strategy) {
  // Requests from here on are this server's, even one sent before its
  // thread first looks.
  const std::uint32_t done = load(&mailbox_->request);
  __atomic_store_n(&mailbox_->wants_next_accesses,
                   strategy->wants_next_accesses() ? 1 : 0, __ATOMIC_RELEASE);
  // The thread takes no signal: under TSan a handler runs only when its
  // thread enters the sanitizer, and this one waits in raw system calls, so
  // a SIGINT delivered to it would never be handled. It inherits the mask.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  thread_ = std::thread([this, done] { serve(done); });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void StrategyServer::stop() {
  stopping_.store(true);
  // Not left to the wait's timeout: a run's end would cost up to 20 ms.
  wake(&mailbox_->request);
  if (thread_.joinable()) thread_.join();
}

void StrategyServer::serve(std::uint32_t done) {
  while (!stopping_.load()) {
    const std::uint32_t number = load(&mailbox_->request);
    if (number == done) {
      wait_while(&mailbox_->request, number, 20);
      continue;
    }
    done = number;
    const int size = std::clamp<int>(mailbox_->size, 0, Mailbox::kWords);
    int answer = 0;
    if (error_.empty()) {
      try {
        answer = play(size);
      } catch (const std::exception& e) {
        error_ = e.what();
      }
    }
    mailbox_->answer_value = answer;
    __atomic_store_n(&mailbox_->failed, error_.empty() ? 0 : 1,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&mailbox_->answer, number, __ATOMIC_RELEASE);
    wake(&mailbox_->answer);
  }
}

int StrategyServer::play(int size) {
  // The words come from the program: every count and value is checked.
  const std::int64_t* words = mailbox_->words;
  int at = 0;
  auto next = [&]() -> std::int64_t {
    if (at >= size) throw ScheduleError("the program sent a cut record");
    return words[at++];
  };
  auto count = [&](int per_item) {
    const std::int64_t n = next();
    if (n < 0 || n * per_item > size - at) {
      throw ScheduleError("the program sent a record of a bad length");
    }
    return static_cast<int>(n);
  };
  auto thread = [&] {
    const std::int64_t t = next();
    if (t < -1 || t >= kMaxProgramThreads) {
      throw ScheduleError("the program sent a thread out of range");
    }
    return static_cast<int>(t);
  };
  auto access = [&] {
    const std::int64_t kind = next();
    const std::int64_t object = next();
    const std::int64_t how = next();
    if (kind < static_cast<std::int64_t>(ObjectKind::kNone) ||
        kind > static_cast<std::int64_t>(ObjectKind::kUnknown) ||
        (how != static_cast<std::int64_t>(AccessKind::kRead) &&
         how != static_cast<std::int64_t>(AccessKind::kWrite))) {
      throw ScheduleError("the program sent an access out of range");
    }
    return PointAccess{
        static_cast<ObjectKind>(kind),
        reinterpret_cast<const void*>(static_cast<std::intptr_t>(object)),
        static_cast<AccessKind>(how)};
  };
  int answer = 0;
  while (at < size) {
    switch (next()) {
      case Mailbox::kBegin: {
        const int threads = thread();
        if (threads < 1) throw ScheduleError("a schedule of no thread");
        strategy_->begin_schedule(threads);
        began_ = true;
        break;
      }
      case Mailbox::kStepFinished: {
        const int who = thread();
        Footprint footprint(count(kAccessWords));
        for (PointAccess& a : footprint) a = access();
        strategy_->step_finished(who, footprint);
        break;
      }
      case Mailbox::kNextAccesses: {
        const std::int64_t threads = next();
        if (threads < 0 || threads > kMaxProgramThreads) {
          throw ScheduleError("the program sent a bad count of threads");
        }
        std::vector<PointAccess> by_thread(static_cast<std::size_t>(threads),
                                           PointAccess::none());
        for (int n = count(kAccessWords + 1); n > 0; --n) {
          const int t = thread();
          if (t < 0 || t >= threads) {
            throw ScheduleError("the program sent an access of no thread");
          }
          by_thread[static_cast<std::size_t>(t)] = access();
        }
        if (strategy_->wants_next_accesses()) {
          strategy_->next_accesses(by_thread);
        }
        break;
      }
      case Mailbox::kPick: {
        const int current = thread();
        std::vector<int> enabled(count(1));
        for (int& t : enabled) t = thread();
        if (enabled.empty() ||
            !std::is_sorted(enabled.begin(), enabled.end()) ||
            enabled.front() < 0) {
          throw ScheduleError("the program sent a bad set of enabled threads");
        }
        answer = strategy_->pick(enabled, current);
        if (enabled.size() == 1 && answer != enabled.front()) {
          // The program went on with its one thread without asking.
          throw ScheduleError(
              "the strategy picked a thread that is not enabled where only "
              "thread " +
              std::to_string(enabled.front()) + " could run");
        }
        break;
      }
      case Mailbox::kPickValue: {
        const std::int64_t stores = next();
        if (stores < 2 || stores > kMaxStores) {
          throw ScheduleError("the program sent a bad count of stores");
        }
        answer = strategy_->pick_value(static_cast<int>(stores));
        break;
      }
      case Mailbox::kEnd:
        more_ = strategy_->end_schedule();
        ended_ = true;
        answer = more_ ? 1 : 0;
        break;
      default:
        throw ScheduleError("the program sent an unknown record");
    }
  }
  return answer;
}

}  // namespace racelab::sched
