// The checkpoint scenarios, including the seed's own test.
#include "checkpoint_scenarios.h"

#include <map>
#include <optional>
#include <random>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "racelab/sched/scheduler.h"

namespace racelab::checkpoint {
namespace {

using Op = CheckpointOp;

std::string thread_name(int thread) {
  return thread == kSetupThread ? "setup" : absl::StrCat("thread ", thread);
}

// Final reads of every session the program commits to: its index and each
// checkpoint it should hold.
void add_finale(Program<Op>& p) {
  std::map<std::string, int> commits;
  for (const Op& op : p.setup)
    commits[op.session] += op.kind == Op::Kind::kCommit;
  for (const auto& ops : p.threads) {
    for (const Op& op : ops)
      commits[op.session] += op.kind == Op::Kind::kCommit;
  }
  for (const auto& [session, n] : commits) {
    p.finale.push_back(Op::retrieve_index(session));
    for (int id = 0; id < n; ++id) p.finale.push_back(Op::lookup(session, id));
  }
}

Program<Op> concurrent_sessions(std::uint64_t /*seed*/, ProgramSize size) {
  Program<Op> p;
  const int threads = size == ProgramSize::kFull ? 64 : 4;
  for (int t = 0; t < threads; ++t) {
    std::string session = absl::StrCat("s", t);
    p.threads.push_back({Op::commit(session, absl::StrCat("x", t)),
                         Op::retrieve_index(session),
                         Op::lookup(session, Op::kLastCommit)});
  }
  add_finale(p);
  return p;
}

Program<Op> same_session_first_commit(std::uint64_t /*seed*/,
                                      ProgramSize size) {
  Program<Op> p;
  // Rounds: every thread commits to s0, then s1, ... so each session's first
  // commit is a race among all threads (full: 8 threads x 16 sessions).
  const bool full = size == ProgramSize::kFull;
  for (int t = 0; t < (full ? 8 : 3); ++t) {
    std::vector<Op> ops;
    for (int s = 0; s < (full ? 16 : 2); ++s) {
      ops.push_back(
          Op::commit(absl::StrCat("s", s), absl::StrCat("p", t, ".", s)));
    }
    p.threads.push_back(std::move(ops));
  }
  add_finale(p);
  return p;
}

Program<Op> index_reader_vs_committer(std::uint64_t /*seed*/,
                                      ProgramSize size) {
  Program<Op> p;
  const bool full = size == ProgramSize::kFull;
  p.setup.push_back(Op::commit("s", "p0"));
  std::vector<Op> committer, reader;
  for (int i = 1; i <= (full ? 32 : 4); ++i) {
    committer.push_back(Op::commit("s", absl::StrCat("p", i)));
  }
  for (int i = 0; i < (full ? 8 : 2); ++i) {
    reader.push_back(Op::retrieve_index("s", /*pause_each=*/true));
  }
  p.threads = {committer, reader};
  add_finale(p);
  return p;
}

// A random program: 2-4 threads of 1-8 operations over two sessions.
Program<Op> generated(std::uint64_t seed, ProgramSize /*size*/) {
  std::mt19937_64 rng(seed);
  auto below = [&](int n) {
    return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
  };
  Program<Op> p;
  const int threads = 2 + below(3);
  for (int t = 0; t < threads; ++t) {
    std::vector<Op> ops;
    const int count = 1 + below(8);
    for (int i = 0; i < count; ++i) {
      std::string session = below(2) == 0 ? "a" : "b";
      const int kind = below(10);
      if (kind < 5) {
        ops.push_back(Op::commit(session, absl::StrCat("p", t, ".", i)));
      } else if (kind < 7) {
        ops.push_back(
            Op::lookup(session, below(3) == 0 ? Op::kLastCommit : below(3)));
      } else {
        ops.push_back(Op::retrieve_index(session, below(2) == 0));
      }
    }
    p.threads.push_back(std::move(ops));
  }
  add_finale(p);
  return p;
}

// Every commit the history records, by session and id, and how many each
// session got.
struct Committed {
  std::map<std::pair<std::string, CheckpointId>,
           const Event<Op, CheckpointResult>*>
      by_key;
  std::map<std::string, size_t> per_session;
};

// Unique ids: no two commits to a session returned the same id.
Committed unique_ids(const History<Op, CheckpointResult>& history,
                     std::vector<Finding>& findings) {
  Committed committed;
  for (const auto& e : history) {
    if (e.op.kind != Op::Kind::kCommit) continue;
    ++committed.per_session[e.op.session];
    auto [it, fresh] =
        committed.by_key.emplace(std::make_pair(e.op.session, e.result.id), &e);
    if (!fresh) {
      findings.push_back(invariant_violation(absl::StrCat(
          "two commits to session '", e.op.session, "' returned the same id ",
          e.result.id, ": ", thread_name(it->second->thread), " committed '",
          it->second->op.payload, "', ", thread_name(e.thread), " committed '",
          e.op.payload, "'; one of them is lost")));
    }
  }
  return committed;
}

// No committed checkpoint is lost: the quiescent store still has each one.
void nothing_lost(const Committed& committed, CheckpointStore& store,
                  std::vector<Finding>& findings) {
  for (const auto& [key, e] : committed.by_key) {
    std::optional<std::string> now = store.lookup(key.first, key.second);
    if (now != e->op.payload) {
      findings.push_back(invariant_violation(absl::StrCat(
          "lost commit: ", thread_name(e->thread), " committed '",
          e->op.payload, "' to session '", key.first, "' and got id ",
          key.second, ", but after the run lookup(", key.first, ",", key.second,
          ") returns ", now ? absl::StrCat("'", *now, "'") : "not_found")));
    }
  }
  for (const auto& [session, count] : committed.per_session) {
    IndexView view = store.retrieve_index(session);
    std::vector<CheckpointId> ids(view.ids().begin(), view.ids().end());
    std::vector<CheckpointId> want(count);
    for (CheckpointId id = 0; id < count; ++id) want[id] = id;
    if (ids != want) {
      findings.push_back(invariant_violation(
          absl::StrCat("after ", count, " commits to session '", session,
                       "' its index is [", absl::StrJoin(ids, ","),
                       "], expected [", absl::StrJoin(want, ","), "]")));
    }
  }
}

// Reads during the run saw states the store really had. The history lists
// each thread's operations in program order, so the last commit seen for a
// thread is the one a later "lookup(session,last)" of that thread means.
void reads_were_real(const History<Op, CheckpointResult>& history,
                     const Committed& committed,
                     std::vector<Finding>& findings) {
  const auto& commits = committed.by_key;
  std::map<int, std::pair<std::string, CheckpointId>> last_commit;
  for (const auto& e : history) {
    if (e.op.kind == Op::Kind::kCommit)
      last_commit[e.thread] = {e.op.session, e.result.id};
    if (e.op.kind == Op::Kind::kRetrieveIndex) {
      for (size_t i = 0; i < e.result.index.size(); ++i) {
        if (e.result.index[i] == i) continue;
        findings.push_back(invariant_violation(
            absl::StrCat(thread_name(e.thread), ": index(", e.op.session,
                         ") read [", absl::StrJoin(e.result.index, ","),
                         "], which is no prefix of the commit order")));
        break;
      }
    } else if (e.op.kind == Op::Kind::kLookup) {
      auto it = commits.find({e.op.session, e.result.id});
      auto last = last_commit.find(e.thread);
      bool own = e.op.id == Op::kLastCommit && last != last_commit.end() &&
                 last->second == std::make_pair(e.op.session, e.result.id);
      if (e.result.payload && (it == commits.end() ||
                               *e.result.payload != it->second->op.payload)) {
        findings.push_back(invariant_violation(
            absl::StrCat(thread_name(e.thread), ": lookup(", e.op.session, ",",
                         e.result.id, ") returned '", *e.result.payload,
                         "', which no commit stored there")));
      } else if (!e.result.payload && own) {
        findings.push_back(invariant_violation(absl::StrCat(
            thread_name(e.thread), ": lookup(", e.op.session, ",", e.result.id,
            ") of its own completed commit returned not_found")));
      }
    }
  }
}

}  // namespace

// The bookkeeping over the recorded calls touches nothing under test, so it
// runs where TSan does not watch (sched::HarnessScope), as the linearizability
// check does; only the final reads of the store are watched.
void check_checkpoint_invariants(
    const Program<CheckpointOp>& /*program*/,
    const History<CheckpointOp, CheckpointResult>& history,
    CheckpointStore& store, std::vector<Finding>& findings) {
  std::optional<Committed> committed;
  {
    sched::HarnessScope harness;
    committed.emplace(unique_ids(history, findings));
  }
  nothing_lost(*committed, store, findings);
  sched::HarnessScope harness;
  reads_were_real(history, *committed, findings);
  committed.reset();  // its memory, too, is freed unwatched
}

const std::vector<Scenario<CheckpointFamily>>& checkpoint_scenarios() {
  static const auto* scenarios = new std::vector<Scenario<CheckpointFamily>>{
      {"seed_concurrent_sessions",
       "the seed's test: 64 threads each commit to their own session, then "
       "read "
       "its index and look their checkpoint up",
       concurrent_sessions, check_checkpoint_invariants},
      {"same_session_first_commit",
       "8 threads race to commit the first checkpoint of a new session, for 16 "
       "sessions in turn",
       same_session_first_commit, check_checkpoint_invariants},
      {"index_reader_vs_committer",
       "one thread commits 32 checkpoints to a session while another reads its "
       "index 8 times, slowly",
       index_reader_vs_committer, check_checkpoint_invariants},
      {"generated",
       "random programs from the seed: 2-4 threads of 1-8 commits, lookups and "
       "index "
       "reads over two sessions (controlled mode: pct and random run a new "
       "program in every schedule, dfs one program per search tree)",
       generated,
       check_checkpoint_invariants,
       {Mode::kControlled}},
  };
  return *scenarios;
}

}  // namespace racelab::checkpoint
