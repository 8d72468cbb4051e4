// A strategy that lives in another process: a whole program's scheduler
// (racelab::runtime) holds a RemoteStrategy, which sends every call it gets
// through the channel's mailbox (program_channel::Mailbox), and racelab's
// StrategyServer plays the calls on the real strategy, the one the engine's
// search made (controlled_internal::explore). So a whole program is searched
// by the same strategies, dfs's partial-order reduction included, as the
// catalog's stores. Both ends are here so that the record format is written
// once.
#ifndef RACELAB_REMOTE_STRATEGY_H_
#define RACELAB_REMOTE_STRATEGY_H_

#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "racelab/internal/sched/strategy.h"
#include "racelab/program_channel.h"

namespace racelab::sched {

// The program's end. Calls come from the thread holding the baton, one at a
// time. A batch of calls without an answer (begin, steps finished, next
// accesses, and picks with one thread enabled, whose answer is that
// thread) waits in the mailbox for the next pick among several threads or
// end, which sends it and waits for the answer. Throws ScheduleError when
// racelab's strategy could not follow (a replayed decision that is not
// enabled here).
class RemoteStrategy final : public Strategy {
 public:
  explicit RemoteStrategy(program_channel::Mailbox* mailbox, bool trace);
  std::string_view name() const override { return "remote"; }
  void begin_schedule(int thread_count) override;
  int pick(const std::vector<int>& enabled, int current) override;
  int pick_value(int count) override;
  void step_finished(int thread, const Footprint& footprint) override;
  bool wants_next_accesses() const override { return wants_next_accesses_; }
  void next_accesses(const std::vector<PointAccess>& by_thread) override;
  bool end_schedule() override;

 private:
  // Room for `words` more words, sending what waits when there is not.
  void reserve(int words);
  void put(std::int64_t word) { mailbox_->words[size_++] = word; }
  void put(const PointAccess& access);
  // Sends the batch and returns the answer of its last record.
  int send();

  program_channel::Mailbox* mailbox_;
  bool wants_next_accesses_;  // what racelab's strategy said
  int size_ = 0;
  std::uint32_t sent_ = 0;
};

// racelab's end: a thread that answers the mailbox with `strategy` until
// stop(). Its calls on the strategy end before stop() returns. Made before
// the program starts: it tells the mailbox what the strategy wants.
class StrategyServer {
 public:
  StrategyServer(program_channel::Mailbox* mailbox, Strategy* strategy);
  ~StrategyServer() { stop(); }
  StrategyServer(const StrategyServer&) = delete;
  StrategyServer& operator=(const StrategyServer&) = delete;

  void stop();

  // After stop(): whether the program began a schedule and ended it, what
  // end_schedule() answered, and why the strategy could not go on (empty
  // when it could).
  bool began() const { return began_; }
  bool ended() const { return ended_; }
  bool more_schedules() const { return more_; }
  const std::string& error() const { return error_; }

 private:
  // Answers every request after `done`.
  void serve(std::uint32_t done);
  // Plays one batch; returns the answer of its last record.
  int play(int size);

  program_channel::Mailbox* mailbox_;
  Strategy* strategy_;
  std::atomic<bool> stopping_{false};
  bool began_ = false;
  bool ended_ = false;
  bool more_ = false;
  std::string error_;
  std::thread thread_;
};

}  // namespace racelab::sched

#endif  // RACELAB_REMOTE_STRATEGY_H_
