// Decoding (and, for seeds and tests, encoding) of fuzz inputs; the format is
// described in fuzz_input.h.
#include "fuzz_input.h"

#include <any>
#include <map>
#include <stdexcept>
#include <string>

#include "absl/strings/str_cat.h"
#include "checkpoint_spec.h"
#include "state_spec.h"

namespace racelab::fuzz {
namespace {

using checkpoint::IndexRead;
using checkpoint::LookupId;
using state::AllFlags;

const char* const kSessionNames[kSessions] = {"a", "b", "c", "d"};
const char* const kKeyNames[kKeys] = {"k0", "k1", "k2", "k3"};

std::string payload(int thread, int op) {
  return absl::StrCat("p", thread, ".", op);
}
std::string value(int thread, int op) {
  return absl::StrCat("v", thread, ".", op);
}

using checkpoint::commit_call;
using checkpoint::index_call;
using checkpoint::lookup_call;

PlannedCall decode_checkpoint_op(std::uint8_t b, int thread, int index) {
  const std::string session = kSessionNames[(b >> 2) & 3];
  switch (b & 3) {
    case 0:
    case 1:
      return commit_call(session, payload(thread, index));
    case 2: {
      const int id = (b >> 4) & 3;
      return lookup_call(session, id == 3 ? LookupId::kLast : id);
    }
    default:
      return index_call(session, ((b >> 4) & 1) != 0);
  }
}

PlannedCall decode_state_op(std::uint8_t b, int thread, int index) {
  const std::string key = kKeyNames[(b >> 2) & 3];
  switch (b & 3) {
    case 0:
      return call("set", key, value(thread, index));
    case 1:
      return call("get", key);
    case 2:
      return call("erase", key);
    default:
      return call("all", AllFlags{((b >> 2) & 1) != 0, (b >> 3) & 3, false});
  }
}

[[noreturn]] void outside(const std::string& what) {
  throw std::invalid_argument("not in the fuzz domain: " + what);
}

// Argument `index` of `c`, of the type the spec declares for it.
template <class T>
const T& argument(const PlannedCall& c, std::size_t index) {
  const T* arg =
      index < c.args.size() ? std::any_cast<T>(&c.args[index]) : nullptr;
  if (arg == nullptr) {
    outside(absl::StrCat(c.name, ": argument ", index + 1,
                         " is missing or of another type"));
  }
  return *arg;
}

// Everything but the setup and the finale, which each family builds (the
// setup from the setup byte).
template <class DecodeOp>
FuzzCase decode(const std::uint8_t* data, std::size_t size, DecodeOp decode_op,
                std::uint8_t& setup) {
  ByteCursor cursor(data, size);
  FuzzCase c;
  c.selector = cursor.next();
  setup = cursor.next();
  const int threads =
      kMinThreads + cursor.next() % (kMaxThreads - kMinThreads + 1);
  for (int t = 0; t < threads; ++t) {
    const int count = 1 + cursor.next() % kMaxOpsPerThread;
    std::vector<PlannedCall> calls;
    calls.reserve(count);
    for (int i = 0; i < count; ++i) {
      calls.push_back(decode_op(cursor.next(), t, i));
    }
    c.program.threads.push_back(std::move(calls));
  }
  c.schedule = cursor.rest();
  return c;
}

int index_of(const char* const* names, int count, const std::string& name,
             const char* what) {
  for (int i = 0; i < count; ++i) {
    if (name == names[i]) return i;
  }
  outside(absl::StrCat(what, " '", name, "'"));
}

template <class EncodeOp>
std::vector<std::uint8_t> encode(std::uint8_t selector, std::uint8_t setup,
                                 const Plan& program,
                                 const std::vector<std::uint8_t>& schedule,
                                 EncodeOp encode_op) {
  const int threads = static_cast<int>(program.threads.size());
  if (threads < kMinThreads || threads > kMaxThreads) {
    outside(absl::StrCat(threads, " threads"));
  }
  std::vector<std::uint8_t> out = {
      selector, setup, static_cast<std::uint8_t>(threads - kMinThreads)};
  for (int t = 0; t < threads; ++t) {
    const auto& calls = program.threads[static_cast<std::size_t>(t)];
    if (calls.empty() || calls.size() > kMaxOpsPerThread) {
      outside(absl::StrCat(calls.size(), " operations in thread ", t));
    }
    out.push_back(static_cast<std::uint8_t>(calls.size() - 1));
    for (std::size_t i = 0; i < calls.size(); ++i) {
      out.push_back(encode_op(calls[i], t, static_cast<int>(i)));
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

FuzzCase decode_checkpoint_input(const std::uint8_t* data, std::size_t size) {
  std::uint8_t setup = 0;
  FuzzCase c = decode(data, size, decode_checkpoint_op, setup);
  for (int i = 0; i < kSessions; ++i) {
    if ((setup >> i) & 1) {
      c.program.setup.push_back(commit_call(kSessionNames[i], "setup"));
    }
  }
  checkpoint::add_finale_reads(c.program);
  return c;
}

FuzzCase decode_state_input(const std::uint8_t* data, std::size_t size) {
  std::uint8_t setup = 0;
  FuzzCase c = decode(data, size, decode_state_op, setup);
  for (int i = 0; i < kKeys; ++i) {
    if ((setup >> i) & 1)
      c.program.setup.push_back(call("set", kKeyNames[i], "s"));
  }
  c.program.finale = {call("all", AllFlags{})};
  return c;
}

std::vector<std::uint8_t> encode_checkpoint_input(
    std::uint8_t selector, const Plan& program,
    const std::vector<std::uint8_t>& schedule) {
  std::uint8_t setup = 0;
  for (const PlannedCall& c : program.setup) {
    if (c.name != "commit" || argument<std::string>(c, 1) != "setup") {
      outside("setup " + c.name);
    }
    setup |= static_cast<std::uint8_t>(
        1 << index_of(kSessionNames, kSessions, argument<std::string>(c, 0),
                      "session"));
  }
  auto encode_op = [](const PlannedCall& c, int t, int i) -> std::uint8_t {
    const int s = index_of(kSessionNames, kSessions,
                           argument<std::string>(c, 0), "session");
    if (c.name == "commit") {
      const std::string& p = argument<std::string>(c, 1);
      if (p != payload(t, i)) outside("payload " + p);
      return static_cast<std::uint8_t>(s << 2);
    }
    if (c.name == "lookup") {
      const LookupId& id = argument<LookupId>(c, 1);
      if (!id.last() && (id.id < 0 || id.id > 2)) {
        outside(absl::StrCat("lookup id ", id.id));
      }
      const int field = id.last() ? 3 : static_cast<int>(id.id);
      return static_cast<std::uint8_t>(2 | s << 2 | field << 4);
    }
    if (c.name == "index") {
      const bool pause = argument<IndexRead>(c, 1).pause_each;
      return static_cast<std::uint8_t>(3 | s << 2 | (pause ? 1 : 0) << 4);
    }
    outside("operation " + c.name);
  };
  return encode(selector, setup, program, schedule, encode_op);
}

std::vector<std::uint8_t> encode_state_input(
    std::uint8_t selector, const Plan& program,
    const std::vector<std::uint8_t>& schedule) {
  std::uint8_t setup = 0;
  for (const PlannedCall& c : program.setup) {
    if (c.name != "set" || argument<std::string>(c, 1) != "s") {
      outside("setup " + c.name);
    }
    setup |= static_cast<std::uint8_t>(
        1 << index_of(kKeyNames, kKeys, argument<std::string>(c, 0), "key"));
  }
  auto encode_op = [](const PlannedCall& c, int t, int i) -> std::uint8_t {
    if (c.name == "all") {
      const AllFlags& flags = argument<AllFlags>(c, 0);
      if (flags.write_back || flags.stop_after < 0 || flags.stop_after > 3) {
        outside("all() with these flags");
      }
      // The pause flag shares bit 2 with the key field of other kinds.
      return static_cast<std::uint8_t>(3 | (flags.pause_each ? 1 : 0) << 2 |
                                       flags.stop_after << 3);
    }
    const int k =
        index_of(kKeyNames, kKeys, argument<std::string>(c, 0), "key");
    if (c.name == "set") {
      const std::string& v = argument<std::string>(c, 1);
      if (v != value(t, i)) outside("value " + v);
      return static_cast<std::uint8_t>(k << 2);
    }
    if (c.name == "get") return static_cast<std::uint8_t>(1 | k << 2);
    if (c.name == "erase") return static_cast<std::uint8_t>(2 | k << 2);
    outside("operation " + c.name);
  };
  return encode(selector, setup, program, schedule, encode_op);
}

}  // namespace racelab::fuzz
