// Decoding (and, for seeds and tests, encoding) of fuzz inputs; the format is
// described in fuzz_input.h.
#include "fuzz_input.h"

#include <map>
#include <stdexcept>
#include <string>

#include "absl/strings/str_cat.h"

namespace racelab::fuzz {
namespace {

using checkpoint::CheckpointFamily;
using checkpoint::CheckpointOp;
using state::StateFamily;
using state::StateOp;

const char* const kSessionNames[kSessions] = {"a", "b", "c", "d"};
const char* const kKeyNames[kKeys] = {"k0", "k1", "k2", "k3"};

std::string payload(int thread, int op) {
  return absl::StrCat("p", thread, ".", op);
}
std::string value(int thread, int op) {
  return absl::StrCat("v", thread, ".", op);
}

CheckpointOp decode_checkpoint_op(std::uint8_t b, int thread, int index) {
  const std::string session = kSessionNames[(b >> 2) & 3];
  switch (b & 3) {
    case 0:
    case 1:
      return CheckpointOp::commit(session, payload(thread, index));
    case 2: {
      const int id = (b >> 4) & 3;
      return CheckpointOp::lookup(session,
                                  id == 3 ? CheckpointOp::kLastCommit : id);
    }
    default:
      return CheckpointOp::retrieve_index(session, ((b >> 4) & 1) != 0);
  }
}

StateOp decode_state_op(std::uint8_t b, int thread, int index) {
  const std::string key = kKeyNames[(b >> 2) & 3];
  switch (b & 3) {
    case 0:
      return StateOp::set(key, value(thread, index));
    case 1:
      return StateOp::get(key);
    case 2:
      return StateOp::erase(key);
    default:
      return StateOp::all(((b >> 2) & 1) != 0, (b >> 3) & 3);
  }
}

// As the checkpoint scenarios do: final reads of every session the program
// commits to, its index and each checkpoint it should hold.
void add_checkpoint_finale(Program<CheckpointOp>& p) {
  std::map<std::string, int> commits;
  auto count = [&](const std::vector<CheckpointOp>& ops) {
    for (const CheckpointOp& op : ops) {
      commits[op.session] += op.kind == CheckpointOp::Kind::kCommit;
    }
  };
  count(p.setup);
  for (const auto& ops : p.threads) count(ops);
  for (const auto& [session, n] : commits) {
    p.finale.push_back(CheckpointOp::retrieve_index(session));
    for (int id = 0; id < n; ++id) {
      p.finale.push_back(CheckpointOp::lookup(session, id));
    }
  }
}

// Everything but the setup, which each family builds from the setup byte.
template <class Op, class DecodeOp>
FuzzCase<Op> decode(const std::uint8_t* data, std::size_t size,
                    DecodeOp decode_op, std::uint8_t& setup) {
  ByteCursor cursor(data, size);
  FuzzCase<Op> c;
  c.selector = cursor.next();
  setup = cursor.next();
  const int threads =
      kMinThreads + cursor.next() % (kMaxThreads - kMinThreads + 1);
  for (int t = 0; t < threads; ++t) {
    const int count = 1 + cursor.next() % kMaxOpsPerThread;
    std::vector<Op> ops;
    ops.reserve(count);
    for (int i = 0; i < count; ++i) {
      ops.push_back(decode_op(cursor.next(), t, i));
    }
    c.program.threads.push_back(std::move(ops));
  }
  c.schedule = cursor.rest();
  return c;
}

[[noreturn]] void outside(const std::string& what) {
  throw std::invalid_argument("not in the fuzz domain: " + what);
}

int index_of(const char* const* names, int count, const std::string& name,
             const char* what) {
  for (int i = 0; i < count; ++i) {
    if (name == names[i]) return i;
  }
  outside(absl::StrCat(what, " '", name, "'"));
}

template <class Op, class EncodeOp>
std::vector<std::uint8_t> encode(std::uint8_t selector, std::uint8_t setup,
                                 const Program<Op>& program,
                                 const std::vector<std::uint8_t>& schedule,
                                 EncodeOp encode_op) {
  const int threads = static_cast<int>(program.threads.size());
  if (threads < kMinThreads || threads > kMaxThreads) {
    outside(absl::StrCat(threads, " threads"));
  }
  std::vector<std::uint8_t> out = {
      selector, setup, static_cast<std::uint8_t>(threads - kMinThreads)};
  for (int t = 0; t < threads; ++t) {
    const auto& ops = program.threads[static_cast<std::size_t>(t)];
    if (ops.empty() || ops.size() > kMaxOpsPerThread) {
      outside(absl::StrCat(ops.size(), " operations in thread ", t));
    }
    out.push_back(static_cast<std::uint8_t>(ops.size() - 1));
    for (std::size_t i = 0; i < ops.size(); ++i) {
      out.push_back(encode_op(ops[i], t, static_cast<int>(i)));
    }
  }
  out.insert(out.end(), schedule.begin(), schedule.end());
  return out;
}

}  // namespace

std::vector<std::uint8_t> ByteCursor::rest() const {
  if (pos_ >= size_) return {};
  return std::vector<std::uint8_t>(data_ + pos_, data_ + size_);
}

int ByteStrategy::pick(const std::vector<int>& enabled, int current) {
  if (step_ < bytes_.size()) {
    const std::uint8_t b = bytes_[step_++];
    return enabled[b % enabled.size()];
  }
  ++step_;
  return sched::fallback_choice(enabled, current);
}

FuzzCase<CheckpointOp> decode_checkpoint_input(const std::uint8_t* data,
                                               std::size_t size) {
  std::uint8_t setup = 0;
  FuzzCase<CheckpointOp> c =
      decode<CheckpointOp>(data, size, decode_checkpoint_op, setup);
  for (int i = 0; i < kSessions; ++i) {
    if ((setup >> i) & 1) {
      c.program.setup.push_back(
          CheckpointOp::commit(kSessionNames[i], "setup"));
    }
  }
  add_checkpoint_finale(c.program);
  return c;
}

FuzzCase<StateOp> decode_state_input(const std::uint8_t* data,
                                     std::size_t size) {
  std::uint8_t setup = 0;
  FuzzCase<StateOp> c = decode<StateOp>(data, size, decode_state_op, setup);
  for (int i = 0; i < kKeys; ++i) {
    if ((setup >> i) & 1)
      c.program.setup.push_back(StateOp::set(kKeyNames[i], "s"));
  }
  c.program.finale = {StateOp::all()};
  return c;
}

std::vector<std::uint8_t> encode_checkpoint_input(
    std::uint8_t selector, const Program<CheckpointOp>& program,
    const std::vector<std::uint8_t>& schedule) {
  std::uint8_t setup = 0;
  for (const CheckpointOp& op : program.setup) {
    if (op.kind != CheckpointOp::Kind::kCommit || op.payload != "setup") {
      outside("setup " + CheckpointFamily::describe(op));
    }
    setup |= static_cast<std::uint8_t>(
        1 << index_of(kSessionNames, kSessions, op.session, "session"));
  }
  auto encode_op = [](const CheckpointOp& op, int t, int i) -> std::uint8_t {
    const int s = index_of(kSessionNames, kSessions, op.session, "session");
    switch (op.kind) {
      case CheckpointOp::Kind::kCommit:
        if (op.payload != payload(t, i)) outside("payload " + op.payload);
        return static_cast<std::uint8_t>(s << 2);
      case CheckpointOp::Kind::kLookup: {
        if (op.id != CheckpointOp::kLastCommit && (op.id < 0 || op.id > 2)) {
          outside(CheckpointFamily::describe(op));
        }
        const int id =
            op.id == CheckpointOp::kLastCommit ? 3 : static_cast<int>(op.id);
        return static_cast<std::uint8_t>(2 | s << 2 | id << 4);
      }
      case CheckpointOp::Kind::kRetrieveIndex:
        return static_cast<std::uint8_t>(3 | s << 2 |
                                         (op.pause_each ? 1 : 0) << 4);
    }
    outside("operation kind");
  };
  return encode(selector, setup, program, schedule, encode_op);
}

std::vector<std::uint8_t> encode_state_input(
    std::uint8_t selector, const Program<StateOp>& program,
    const std::vector<std::uint8_t>& schedule) {
  std::uint8_t setup = 0;
  for (const StateOp& op : program.setup) {
    if (op.kind != StateOp::Kind::kSet || op.value != "s") {
      outside("setup " + StateFamily::describe(op));
    }
    setup |= static_cast<std::uint8_t>(
        1 << index_of(kKeyNames, kKeys, op.key, "key"));
  }
  auto encode_op = [](const StateOp& op, int t, int i) -> std::uint8_t {
    if (op.kind == StateOp::Kind::kAll) {
      if (op.write_back || op.stop_after < 0 || op.stop_after > 3) {
        outside(StateFamily::describe(op));
      }
      // The pause flag shares bit 2 with the key field of other kinds.
      return static_cast<std::uint8_t>(3 | (op.pause_each ? 1 : 0) << 2 |
                                       op.stop_after << 3);
    }
    const int k = index_of(kKeyNames, kKeys, op.key, "key");
    switch (op.kind) {
      case StateOp::Kind::kSet:
        if (op.value != value(t, i)) outside("value " + op.value);
        return static_cast<std::uint8_t>(k << 2);
      case StateOp::Kind::kGet:
        return static_cast<std::uint8_t>(1 | k << 2);
      case StateOp::Kind::kErase:
        return static_cast<std::uint8_t>(2 | k << 2);
      default:
        outside("operation kind");
    }
  };
  return encode(selector, setup, program, schedule, encode_op);
}

}  // namespace racelab::fuzz
