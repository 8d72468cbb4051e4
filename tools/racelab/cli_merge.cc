// racelab merge: the shards of one run (a gate, an `explore --tests`, a
// split `explore` search) joined into one report set. Refuses shards of
// different runs, a shard claiming what is not its own, and an --out that
// is one of the shards.
#include "racelab/cli_commands.h"

namespace racelab::cli_internal {

namespace {

// racelab merge
struct MergeFlags {
  std::vector<std::string> dirs;
  std::string out;
};

// Every input refused is one line, "racelab: merge: ...".
[[noreturn]] void refuse_input(const InputError& e) {
  const std::string what = e.what();
  if (what.starts_with("merge: ")) throw e;
  throw InputError("merge: " + what);
}

int handle_merge(const MergeFlags& flags) {
  report_write_errors_instead_of_dying();
  std::vector<GateOutput> shards;
  std::size_t shard_count = 0;
  GateOutput merged;
  try {
    // Before anything is read or created: --out is none of the shards.
    check_out_apart({flags.dirs.begin(), flags.dirs.end()}, flags.out);
  } catch (const InputError& e) {
    refuse_input(e);
  }
  OutputFolder out("--out", flags.out);
  try {
    for (const std::string& dir : flags.dirs)
      shards.push_back(read_gate_output(dir));
    shard_count = shards.size();
    merged = merge_gate_outputs(std::move(shards));
  } catch (const InputError& e) {
    refuse_input(e);
  }
  try {
    write_results_json(merged.result, merged.options, out.staging().string());
    out.commit();
  } catch (const OutputError& e) {
    print_error(std::cerr, out.explain(e.what()));
    return kExitHarness;
  }
  print_gate_table(merged.result, std::cout);
  std::cout << "reports of " << shard_count << " shards written to "
            << flags.out << "\n";
  return merged.result.mismatches == 0 ? kExitOk : kExitMismatch;
}

}  // namespace

Subcommand add_merge_command(CLI::App& app) {
  auto flags = std::make_shared<MergeFlags>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "join the --out folders of gate shards (--shard K/N) into one set of "
      "reports");
  cmd->add_option("dirs", flags->dirs, "the shards' --out folders")->required();
  cmd->add_option("--out", flags->out, "write the joined reports here")
      ->required();
  return {cmd, [flags] { return handle_merge(*flags); }};
}

}  // namespace racelab::cli_internal
