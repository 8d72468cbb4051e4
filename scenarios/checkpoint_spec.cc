// The checkpoint family's declarations: operations, model, scenarios (the
// seed's own test among them) and invariants; see checkpoint_spec.h.
#include "checkpoint_spec.h"

#include <any>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace racelab::checkpoint {

std::string to_string(const LookupId& id) {
  return id.last() ? "last" : std::to_string(id.id);
}

LookupId LookupIds::generate(Choices& c) const {
  const int n = c.below(4);
  return n == 3 ? LookupId{} : LookupId{n};
}

std::optional<LookupId> LookupIds::parse(std::string_view text) const {
  if (text == "last") return LookupId{};
  std::int64_t id = 0;
  if (text.empty()) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9' || id > 1'000'000'000) return std::nullopt;
    id = id * 10 + (c - '0');
  }
  return LookupId{id};
}

std::string to_string(const IndexRead& read) {
  return read.pause_each ? "pause" : "";
}

IndexRead IndexReads::generate(Choices& c) const { return {c.below(2) == 0}; }

std::optional<IndexRead> IndexReads::parse(std::string_view text) const {
  if (text.empty()) return IndexRead{};
  if (text == "pause") return IndexRead{true};
  return std::nullopt;
}

std::string to_string(const Looked& looked) {
  return looked.payload ? *looked.payload : std::string("not_found");
}

CheckpointId SessionModel::commit(const std::string& /*session*/,
                                  const std::string& payload) {
  payloads_.push_back(payload);
  return payloads_.size() - 1;
}

std::optional<std::string> SessionModel::payload(CheckpointId id) const {
  if (id < payloads_.size()) return payloads_[id];
  return std::nullopt;
}

std::vector<CheckpointId> SessionModel::index() const {
  std::vector<CheckpointId> ids;
  for (CheckpointId id = 0; id < payloads_.size(); ++id) ids.push_back(id);
  return ids;
}

std::size_t SessionModel::hash() const {
  std::size_t h = payloads_.size();
  for (const std::string& p : payloads_)
    h = h * 1000003u ^ std::hash<std::string>{}(p);
  return h;
}

std::string to_string(const SessionModel& model) {
  std::vector<std::string> items;
  for (std::size_t i = 0; i < model.payloads_.size(); ++i)
    items.push_back(absl::StrCat(i, "=", model.payloads_[i]));
  return absl::StrCat("{", absl::StrJoin(items, ", "), "}");
}

PlannedCall commit_call(const std::string& session,
                        const std::string& payload) {
  return call("commit", session, payload);
}
PlannedCall lookup_call(const std::string& session, std::int64_t id) {
  return call("lookup", session, LookupId{id});
}
PlannedCall index_call(const std::string& session, bool pause_each) {
  return call("index", session, IndexRead{pause_each});
}

// Final reads of every session the program commits to: its index and each
// checkpoint it should hold.
void add_finale_reads(Plan& p) {
  std::map<std::string, int> commits;
  auto count = [&](const std::vector<PlannedCall>& calls) {
    for (const PlannedCall& c : calls) {
      commits[std::any_cast<std::string>(c.args[0])] += c.name == "commit";
    }
  };
  count(p.setup);
  for (const auto& calls : p.threads) count(calls);
  for (const auto& [session, n] : commits) {
    p.finale.push_back(index_call(session));
    for (int id = 0; id < n; ++id) p.finale.push_back(lookup_call(session, id));
  }
}

namespace {

Plan concurrent_sessions(ProgramSize size) {
  Plan p;
  const int threads = size == ProgramSize::kFull ? 64 : 4;
  for (int t = 0; t < threads; ++t) {
    std::string session = absl::StrCat("s", t);
    p.threads.push_back({commit_call(session, absl::StrCat("x", t)),
                         index_call(session),
                         lookup_call(session, LookupId::kLast)});
  }
  add_finale_reads(p);
  return p;
}

Plan same_session_first_commit(ProgramSize size) {
  Plan p;
  // Rounds: every thread commits to s0, then s1, ... so each session's first
  // commit is a race among all threads (full: 8 threads x 16 sessions).
  const bool full = size == ProgramSize::kFull;
  for (int t = 0; t < (full ? 8 : 3); ++t) {
    std::vector<PlannedCall> calls;
    for (int s = 0; s < (full ? 16 : 2); ++s) {
      calls.push_back(
          commit_call(absl::StrCat("s", s), absl::StrCat("p", t, ".", s)));
    }
    p.threads.push_back(std::move(calls));
  }
  add_finale_reads(p);
  return p;
}

Plan index_reader_vs_committer(ProgramSize size) {
  Plan p;
  const bool full = size == ProgramSize::kFull;
  p.setup.push_back(commit_call("s", "p0"));
  std::vector<PlannedCall> committer, reader;
  for (int i = 1; i <= (full ? 32 : 4); ++i) {
    committer.push_back(commit_call("s", absl::StrCat("p", i)));
  }
  for (int i = 0; i < (full ? 8 : 2); ++i) {
    reader.push_back(index_call("s", /*pause_each=*/true));
  }
  p.threads = {committer, reader};
  add_finale_reads(p);
  return p;
}

// A random program: 2-4 threads of 1-8 operations over two sessions.
Plan generated(std::uint64_t seed, ProgramSize /*size*/) {
  std::mt19937_64 rng(seed);
  auto below = [&](int n) {
    return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
  };
  Plan p;
  const int threads = 2 + below(3);
  for (int t = 0; t < threads; ++t) {
    std::vector<PlannedCall> calls;
    const int count = 1 + below(8);
    for (int i = 0; i < count; ++i) {
      std::string session = below(2) == 0 ? "a" : "b";
      const int kind = below(10);
      if (kind < 5) {
        calls.push_back(commit_call(session, absl::StrCat("p", t, ".", i)));
      } else if (kind < 7) {
        calls.push_back(
            lookup_call(session, below(3) == 0 ? LookupId::kLast : below(3)));
      } else {
        calls.push_back(index_call(session, below(2) == 0));
      }
    }
    p.threads.push_back(std::move(calls));
  }
  add_finale_reads(p);
  return p;
}

std::string thread_name(int thread) {
  return thread == kSetupThread ? "setup" : absl::StrCat("thread ", thread);
}

// The invariants' findings, one per broken promise, joined.
void add(std::string& out, const std::string& finding) {
  absl::StrAppend(&out, out.empty() ? "" : "; ", finding);
}

// Every commit, by session and id.
using Commits = std::map<std::pair<std::string, CheckpointId>, const CallView*>;

Commits commits_of(const Calls& calls, std::string* twice) {
  Commits commits;
  for (const CallView& c : calls) {
    if (c.name() != "commit") continue;
    const std::string& session = c.arg<std::string>(0);
    const CheckpointId id = c.result<CheckpointId>();
    auto [it, fresh] = commits.emplace(std::make_pair(session, id), &c);
    if (!fresh && twice != nullptr) {
      add(*twice,
          absl::StrCat(
              "two commits to session '", session, "' returned the same id ",
              id, ": ", thread_name(it->second->thread()), " committed '",
              it->second->arg<std::string>(1), "', ", thread_name(c.thread()),
              " committed '", c.arg<std::string>(1), "'; one of them is lost"));
    }
  }
  return commits;
}

std::string unique_ids(const Calls& calls) {
  std::string out;
  commits_of(calls, &out);
  return out;
}

// No committed checkpoint is lost: the quiescent store still has each one,
// and each session's index lists them all.
std::string nothing_lost(CheckpointStore& store, const Calls& calls) {
  std::string out;
  std::map<std::string, std::size_t> commit_count;
  for (const CallView& c : calls)
    commit_count[c.arg<std::string>(0)] += c.name() == "commit";
  for (const auto& [key, c] : commits_of(calls, nullptr)) {
    std::optional<std::string> now = store.lookup(key.first, key.second);
    if (now != c->arg<std::string>(1)) {
      add(out, absl::StrCat("lost commit: ", thread_name(c->thread()),
                            " committed '", c->arg<std::string>(1),
                            "' to session '", key.first, "' and got id ",
                            key.second, ", but after the run lookup(",
                            key.first, ",", key.second, ") returns ",
                            now ? absl::StrCat("'", *now, "'") : "not_found"));
    }
  }
  for (const auto& [session, count] : commit_count) {
    if (count == 0) continue;
    IndexView view = store.retrieve_index(session);
    std::vector<CheckpointId> ids(view.ids().begin(), view.ids().end());
    std::vector<CheckpointId> want;
    for (CheckpointId id = 0; id < count; ++id) want.push_back(id);
    if (ids != want) {
      add(out, absl::StrCat("after ", count, " commits to session '", session,
                            "' its index is [", absl::StrJoin(ids, ","),
                            "], expected [", absl::StrJoin(want, ","), "]"));
    }
  }
  return out;
}

// Reads during the run saw states the store really had. The calls list each
// thread's operations in program order, so the last commit seen for a thread
// is the one a later "lookup(session,last)" of that thread means.
std::string reads_were_real(const Calls& calls) {
  std::string out;
  const Commits commits = commits_of(calls, nullptr);
  std::map<int, std::pair<std::string, CheckpointId>> last_commit;
  for (const CallView& c : calls) {
    const std::string& session = c.arg<std::string>(0);
    if (c.name() == "commit") {
      last_commit[c.thread()] = {session, c.result<CheckpointId>()};
    } else if (c.name() == "index") {
      const auto& ids = c.result<std::vector<CheckpointId>>();
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] == i) continue;
        add(out, absl::StrCat(thread_name(c.thread()), ": index(", session,
                              ") read [", absl::StrJoin(ids, ","),
                              "], which is no prefix of the commit order"));
        break;
      }
    } else if (c.name() == "lookup") {
      const Looked& r = c.result<Looked>();
      auto it = commits.find({session, r.id});
      auto last = last_commit.find(c.thread());
      const bool own = c.arg<LookupId>(1).last() && last != last_commit.end() &&
                       last->second == std::make_pair(session, r.id);
      if (r.payload && (it == commits.end() ||
                        *r.payload != it->second->arg<std::string>(1))) {
        add(out, absl::StrCat(thread_name(c.thread()), ": lookup(", session,
                              ",", r.id, ") returned '", *r.payload,
                              "', which no commit stored there"));
      } else if (!r.payload && own) {
        add(out, absl::StrCat(thread_name(c.thread()), ": lookup(", session,
                              ",", r.id,
                              ") of its own completed commit returned "
                              "not_found"));
      }
    }
  }
  return out;
}

}  // namespace

CheckpointSpec checkpoint_spec() {
  const auto sessions = values("a", "b");
  return CheckpointSpec("checkpoint")
      .op(
          "commit",
          [](auto& s, CallContext& ctx, const std::string& session,
             const std::string& payload) {
            const CheckpointId id = s.commit(session, payload);
            ctx.carried_id = id;
            return id;
          },
          sessions, values("p0", "p1", "p2"))
      .op(
          "lookup",
          [](CheckpointStore& s, CallContext& ctx, const std::string& session,
             const LookupId& id) {
            Looked r;
            r.id =
                id.last() ? ctx.carried_id : static_cast<CheckpointId>(id.id);
            r.payload = s.lookup(session, r.id);
            return r;
          },
          sessions, LookupIds{},
          // The id looked up is the carried one for "last".
          judged_by(
              [](SessionModel& m, const std::string&, const LookupId&,
                 const Looked& r) { return r.payload == m.payload(r.id); }))
      .op(
          "index",
          [](CheckpointStore& s, CallContext& ctx, const std::string& session,
             const IndexRead& read) {
            IndexView view = s.retrieve_index(session);
            // The caller ranges over the returned view after retrieve_index
            // returned, as the seed's callers ranged over the returned slice.
            std::vector<CheckpointId> ids;
            for (CheckpointId id : view.ids()) {
              if (read.pause_each) ctx.pause();
              ids.push_back(id);
            }
            return ids;
          },
          sessions, IndexReads{},
          judged_by([](SessionModel& m, const std::string&, const IndexRead&,
                       const std::vector<CheckpointId>& ids) {
            return ids == m.index();
          }))
      .partition_by_argument(0, "session")
      .without_random_scenario()
      .scenario("seed_concurrent_sessions", concurrent_sessions,
                "the seed's test: 64 threads each commit to their own "
                "session, then read its index and look their checkpoint up")
      .scenario("same_session_first_commit", same_session_first_commit,
                "8 threads race to commit the first checkpoint of a new "
                "session, for 16 sessions in turn")
      .scenario("index_reader_vs_committer", index_reader_vs_committer,
                "one thread commits 32 checkpoints to a session while another "
                "reads its index 8 times, slowly")
      .scenario("generated", generated,
                "random programs from the seed: 2-4 threads of 1-8 commits, "
                "lookups and index reads over two sessions (controlled mode: "
                "pct and random run a new program in every schedule, dfs one "
                "program per search tree)",
                {Mode::kControlled})
      .invariant("unique ids", unique_ids)
      .invariant("nothing lost", nothing_lost)
      .invariant("real reads", reads_were_real);
}

}  // namespace racelab::checkpoint
