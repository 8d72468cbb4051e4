// `racelab merge`: reads the output folders of gate shards (`racelab gate
// --shard K/N --out DIR`) back and joins them into the result of one gate
// over every case, which the usual writers turn into one set of reports.
#ifndef RACELAB_SRC_MERGE_H_
#define RACELAB_SRC_MERGE_H_

#include <filesystem>
#include <vector>

#include "racelab/gate.h"

namespace racelab {

// A gate's output folder, read back: its settings and shard in `options`, its
// cases (with their logs) in `result`.
struct GateOutput {
  std::filesystem::path dir;
  GateOptions options;
  GateResult result;
};

// Reads DIR/results.json and the logs it names. Throws InputError (exit
// status 2) naming the file: missing, not JSON, another schema version,
// malformed, a log it names missing, a case at a position that is not its
// shard's, or, for a shard of a split search, a first failing schedule that
// is not one of its own or more schedules than its share of the budget.
GateOutput read_gate_output(const std::filesystem::path& dir);

// Joins the shards of one run (a gate, an `explore --tests` or a split
// `explore` search): the same run identity (command, program, arguments,
// options: run_identity in gate.h), the same modes, runs, seed and
// settings, the same shard count, each shard 1..N exactly once, none
// interrupted, the cases' positions covering the case list once. The cases
// (moved out of `shards`) come out in the order of the unsharded run, with
// a new run id and the shards' run ids in merged_from. Throws InputError
// naming the folder that does not fit.
GateOutput merge_gate_outputs(std::vector<GateOutput> shards);

// Refuses (InputError) an `out` folder that is one of the shard folders
// `dirs`, lies inside one, or holds one, by any path (a symbolic link, '..',
// a bind mount): merge never writes where it reads. Looks only at the
// paths, before anything is read or created.
void check_out_apart(const std::vector<std::filesystem::path>& dirs,
                     const std::filesystem::path& out);

}  // namespace racelab

#endif  // RACELAB_SRC_MERGE_H_
