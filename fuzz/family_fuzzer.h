// The body of the checkpoint and state fuzz targets: decode an input into a
// program of the family's spec, run it once in controlled mode under every
// oracle (the spec's invariants, linearizability against its model, TSan
// through take_tsan_findings, the scheduler's deadlock and crash findings),
// and report what was found.
#ifndef RACELAB_FUZZ_FAMILY_FUZZER_H_
#define RACELAB_FUZZ_FAMILY_FUZZER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace racelab::fuzz {

struct TargetConfig {
  std::string family;   // "checkpoint" or "state"
  std::string variant;  // fixed subject, or empty: chosen by the input's byte 0
  bool interleaving_coverage = true;
};

// Checks the configuration (the family and variant exist) and reads the
// environment: RACELAB_FUZZ_NO_INTERLEAVING=1 turns the interleaving counters
// off. Exits with a message when the configuration is wrong.
void configure(TargetConfig config);

// Runs one input. On a finding it prints the findings, the subject, the
// program, the decisions and the trace to stderr and aborts, so libFuzzer keeps
// the input. Returns 0 otherwise.
int fuzz_one_input(const std::uint8_t* data, std::size_t size);

// Runs one input as `--replay FILE` does: prints the subject, the decoded
// program, the findings and the trace to stdout. Returns the number of
// findings.
int replay_input(const std::uint8_t* data, std::size_t size);

// Handles `--replay FILE` / `--replay=FILE` in argv: replays and exits (status
// 1 when the input has findings, 0 when it runs clean, 2 when the file cannot
// be read). Does nothing when the flag is absent.
void maybe_replay(int argc, char** argv);

}  // namespace racelab::fuzz

#endif  // RACELAB_FUZZ_FAMILY_FUZZER_H_
