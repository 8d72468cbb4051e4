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
#include "fuzz_input.h"

namespace racelab::fuzz {
namespace {

using checkpoint::CheckpointOp;
using state::StateOp;
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

std::vector<std::pair<std::string, Program<CheckpointOp>>> checkpoint_seeds() {
  std::vector<std::pair<std::string, Program<CheckpointOp>>> seeds;
  {
    // seed_concurrent_sessions, small: every thread commits to its own
    // session, reads its index and looks its checkpoint up.
    Program<CheckpointOp> prog;
    const char* sessions[] = {"a", "b", "c", "d"};
    for (int t = 0; t < 4; ++t) {
      prog.threads.push_back(
          {CheckpointOp::commit(sessions[t], p(t, 0)),
           CheckpointOp::retrieve_index(sessions[t]),
           CheckpointOp::lookup(sessions[t], CheckpointOp::kLastCommit)});
    }
    seeds.emplace_back("seed_concurrent_sessions", prog);
  }
  {
    // same_session_first_commit, small: 3 threads commit to a, then b.
    Program<CheckpointOp> prog;
    for (int t = 0; t < 3; ++t) {
      prog.threads.push_back({CheckpointOp::commit("a", p(t, 0)),
                              CheckpointOp::commit("b", p(t, 1))});
    }
    seeds.emplace_back("same_session_first_commit", prog);
  }
  {
    // index_reader_vs_committer, small.
    Program<CheckpointOp> prog;
    prog.setup = {CheckpointOp::commit("a", "setup")};
    std::vector<CheckpointOp> committer;
    for (int i = 0; i < 4; ++i)
      committer.push_back(CheckpointOp::commit("a", p(0, i)));
    prog.threads = {committer,
                    {CheckpointOp::retrieve_index("a", true),
                     CheckpointOp::retrieve_index("a", true)}};
    seeds.emplace_back("index_reader_vs_committer", prog);
  }
  return seeds;
}

std::vector<std::pair<std::string, Program<StateOp>>> state_seeds() {
  std::vector<std::pair<std::string, Program<StateOp>>> seeds;
  {
    // seed_slow_reader, small: a slow all() while another thread sets keys.
    Program<StateOp> prog;
    prog.setup = {StateOp::set("k0", "s")};
    std::vector<StateOp> writer;
    for (int i = 0; i < 8; ++i)
      writer.push_back(StateOp::set(absl::StrCat("k", i % 4), v(1, i)));
    prog.threads = {{StateOp::all(/*pause_each=*/true)}, writer};
    seeds.emplace_back("seed_slow_reader", prog);
  }
  {
    // erase_during_iteration, small.
    Program<StateOp> prog;
    prog.setup = {StateOp::set("k0", "s"), StateOp::set("k1", "s"),
                  StateOp::set("k2", "s"), StateOp::set("k3", "s")};
    prog.threads = {{StateOp::all(true)},
                    {StateOp::erase("k0"), StateOp::erase("k1"),
                     StateOp::erase("k2"), StateOp::erase("k3")}};
    seeds.emplace_back("erase_during_iteration", prog);
  }
  {
    // Readers and writers of one key, and an early-stopping iteration.
    Program<StateOp> prog;
    prog.setup = {StateOp::set("k0", "s"), StateOp::set("k1", "s")};
    prog.threads = {{StateOp::set("k0", v(0, 0)), StateOp::get("k1")},
                    {StateOp::all(false, 1), StateOp::erase("k0")},
                    {StateOp::get("k0"), StateOp::all(true, 2)}};
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
