// Writes the seed corpora of the family fuzz targets:
//   fuzz_make_corpus <dir>   ->  <dir>/fuzz_checkpoint/<name>,
//   <dir>/fuzz_state/<name>
// Each seed is a small program in the fuzz input format (fuzz_input.h),
// including the two seed reproductions in their small form, with a few
// schedules each. Byte 0 is 1: the family targets run a fixed subject on
// them (mutex, snapshot); the per-subject targets share their family's seeds.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "checkpoint_spec.h"
#include "fuzz_input.h"
#include "state_spec.h"

namespace racelab::fuzz {
namespace {

using checkpoint::IndexRead;
using checkpoint::LookupId;
using state::AllFlags;
using Bytes = std::vector<std::uint8_t>;

// Schedules: run to completion in order; alternate between threads at every
// point; and the "first operation of everybody, then the rest" pattern.
const std::vector<std::pair<std::string, Bytes>>& schedules() {
  static const auto* s = new std::vector<std::pair<std::string, Bytes>>{
      {"serial", {}},
      {"alternate", Bytes(64, 1)},
      {"roundrobin", {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
                      0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}},
  };
  return *s;
}

void write(const std::filesystem::path& dir, const std::string& name,
           const Bytes& bytes) {
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

std::string p(int t, int i) { return absl::StrCat("p", t, ".", i); }
std::string v(int t, int i) { return absl::StrCat("v", t, ".", i); }

// The checkpoint spec's calls.
PlannedCall commit(const std::string& session, const std::string& payload) {
  return call("commit", session, payload);
}
PlannedCall lookup_last(const std::string& session) {
  return call("lookup", session, LookupId{});
}
PlannedCall index_read(const std::string& session, bool pause_each = false) {
  return call("index", session, IndexRead{pause_each});
}
// The state spec's.
PlannedCall set(const std::string& key, const std::string& value) {
  return call("set", key, value);
}
PlannedCall all(bool pause_each = false, int stop_after = 0) {
  return call("all", AllFlags{pause_each, stop_after, false});
}

std::vector<std::pair<std::string, Plan>> checkpoint_seeds() {
  std::vector<std::pair<std::string, Plan>> seeds;
  {
    // seed_concurrent_sessions, small: every thread commits to its own
    // session, reads its index and looks its checkpoint up.
    Plan prog;
    const char* sessions[] = {"a", "b", "c", "d"};
    for (int t = 0; t < 4; ++t) {
      prog.threads.push_back({commit(sessions[t], p(t, 0)),
                              index_read(sessions[t]),
                              lookup_last(sessions[t])});
    }
    seeds.emplace_back("seed_concurrent_sessions", prog);
  }
  {
    // same_session_first_commit, small: 3 threads commit to a, then b.
    Plan prog;
    for (int t = 0; t < 3; ++t) {
      prog.threads.push_back({commit("a", p(t, 0)), commit("b", p(t, 1))});
    }
    seeds.emplace_back("same_session_first_commit", prog);
  }
  {
    // index_reader_vs_committer, small.
    Plan prog;
    prog.setup = {commit("a", "setup")};
    std::vector<PlannedCall> committer;
    for (int i = 0; i < 4; ++i) committer.push_back(commit("a", p(0, i)));
    prog.threads = {committer, {index_read("a", true), index_read("a", true)}};
    seeds.emplace_back("index_reader_vs_committer", prog);
  }
  return seeds;
}

std::vector<std::pair<std::string, Plan>> state_seeds() {
  std::vector<std::pair<std::string, Plan>> seeds;
  {
    // seed_slow_reader, small: a slow all() while another thread sets keys.
    Plan prog;
    prog.setup = {set("k0", "s")};
    std::vector<PlannedCall> writer;
    for (int i = 0; i < 8; ++i)
      writer.push_back(set(absl::StrCat("k", i % 4), v(1, i)));
    prog.threads = {{all(/*pause_each=*/true)}, writer};
    seeds.emplace_back("seed_slow_reader", prog);
  }
  {
    // erase_during_iteration, small.
    Plan prog;
    prog.setup = {set("k0", "s"), set("k1", "s"), set("k2", "s"),
                  set("k3", "s")};
    prog.threads = {{all(true)},
                    {call("erase", "k0"), call("erase", "k1"),
                     call("erase", "k2"), call("erase", "k3")}};
    seeds.emplace_back("erase_during_iteration", prog);
  }
  {
    // Readers and writers of one key, and an early-stopping iteration.
    Plan prog;
    prog.setup = {set("k0", "s"), set("k1", "s")};
    prog.threads = {{set("k0", v(0, 0)), call("get", "k1")},
                    {all(false, 1), call("erase", "k0")},
                    {call("get", "k0"), all(true, 2)}};
    seeds.emplace_back("mixed", prog);
  }
  return seeds;
}

}  // namespace
}  // namespace racelab::fuzz

int main(int argc, char** argv) {
  using namespace racelab::fuzz;
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_corpus <corpus dir>\n");
    return 2;
  }
  const std::filesystem::path root = argv[1];
  int written = 0;
  for (const auto& [name, program] : checkpoint_seeds()) {
    for (const auto& [sched, bytes] : schedules()) {
      write(root / "fuzz_checkpoint", name + "." + sched,
            encode_checkpoint_input(1, program, bytes));
      ++written;
    }
  }
  for (const auto& [name, program] : state_seeds()) {
    for (const auto& [sched, bytes] : schedules()) {
      write(root / "fuzz_state", name + "." + sched,
            encode_state_input(1, program, bytes));
      ++written;
    }
  }
  std::printf("wrote %d seeds under %s\n", written, root.c_str());
  return 0;
}
