// The checkpoint family declared as a racelab::Spec (racelab/spec.h): its
// operations on a CheckpointStore, the argument and result types that read
// and write them in traces and schedule files, its sequential model, its
// scenarios and the invariants every checkpoint run must keep (no committed
// checkpoint is lost, ids are never handed out twice, every index read is a
// state the session really had).
//
// Sessions are independent objects, so the history is checked one session at
// a time (partition_by_argument(0, "session")): the model is one session, the
// payloads in commit order, a checkpoint's id being its index.
// Linearizability is local: the whole history is linearizable exactly when
// every session's is.
#ifndef RACELAB_SCENARIOS_CHECKPOINT_SPEC_H_
#define RACELAB_SCENARIOS_CHECKPOINT_SPEC_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checkpoint/checkpoint_store.h"
#include "racelab/spec.h"

namespace racelab::checkpoint {

// lookup's id: a checkpoint id, or "last", the id this thread's previous
// commit returned (OpContext::carried_id).
struct LookupId {
  static constexpr std::int64_t kLast = -1;
  std::int64_t id = kLast;
  bool last() const { return id == kLast; }
  bool operator==(const LookupId&) const = default;
};
std::string to_string(const LookupId& id);  // "last" or the number
// "last", 0, 1 or 2; reads back "last" and any id up to 10^9.
struct LookupIds {
  using value_type = LookupId;
  LookupId generate(Choices& c) const;
  std::optional<LookupId> parse(std::string_view text) const;
};

// How index() reads the returned view, after the call: with a pause before
// each element (a slow caller), written "index(s,pause)", or not, "index(s)".
struct IndexRead {
  bool pause_each = false;
  bool operator==(const IndexRead&) const = default;
};
std::string to_string(const IndexRead& read);
struct IndexReads {
  static constexpr bool kRestOfArguments = true;
  using value_type = IndexRead;
  IndexRead generate(Choices& c) const;
  std::optional<IndexRead> parse(std::string_view text) const;
};

// What lookup() returned: the id it looked up and the payload found there.
struct Looked {
  CheckpointId id = 0;
  std::optional<std::string> payload;
  bool operator==(const Looked&) const = default;
};
std::string to_string(const Looked& looked);  // the payload, or "not_found"

// The sequential model of one session.
class SessionModel {
 public:
  CheckpointId commit(const std::string& session, const std::string& payload);
  std::optional<std::string> payload(CheckpointId id) const;
  std::vector<CheckpointId> index() const;
  bool operator==(const SessionModel&) const = default;
  std::size_t hash() const;  // equal models, equal hashes
  friend std::string to_string(const SessionModel& model);  // "{0=a, 1=b}"

 private:
  std::vector<std::string> payloads_;
};

using CheckpointSpec = Spec<CheckpointStore, SessionModel>;

// The spec's calls, as a program line holds them (for hand-written programs:
// the scenarios here, the fuzz targets' decoder, tests).
PlannedCall commit_call(const std::string& session, const std::string& payload);
PlannedCall lookup_call(const std::string& session, std::int64_t id);
PlannedCall index_call(const std::string& session, bool pause_each = false);
// Appends to p.finale the final reads of every session p commits to: its
// index, and each checkpoint it should hold.
void add_finale_reads(Plan& p);

// Operations commit(session,payload), lookup(session,id|last) and
// index(session[,pause]); the scenarios seed_concurrent_sessions,
// same_session_first_commit, index_reader_vs_committer and generated. Stores
// come from .make(factory) (CheckpointStore is abstract).
CheckpointSpec checkpoint_spec();

}  // namespace racelab::checkpoint

#endif  // RACELAB_SCENARIOS_CHECKPOINT_SPEC_H_
