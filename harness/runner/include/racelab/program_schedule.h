// The schedule file of a whole program (mode "program"): what `racelab
// explore` saves and `racelab replay` reads. Besides the decisions it holds
// everything a run depends on, so that a replay runs the same command the
// same way: the program's absolute path and every argument, byte for byte
// (quoted: `arg.N "text"` with \\ \" \n \t \r and \xHH escapes, so empty
// arguments, newlines and bytes that are not UTF-8 survive), their count
// (`argc`), and the options that change a run (`max_steps`, `spin_bound`,
// `hang_seconds`; `depth` for pct). A file is untrusted input: every key is
// checked, and the program it names is checked before it runs
// (runtime_mark.h).
#ifndef RACELAB_SRC_PROGRAM_SCHEDULE_H_
#define RACELAB_SRC_PROGRAM_SCHEDULE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/internal/sched/schedule_file.h"
#include "racelab/program_explorer.h"

namespace racelab {

// `text` as a quoted value, and back (nullopt for a malformed value).
std::string quote_argument(std::string_view text);
std::optional<std::string> unquote_argument(std::string_view value);

// The file's text for `options` (command[0] absolute) and `decisions`.
std::string program_schedule_text(const ProgramExploreOptions& options,
                                  const std::vector<int>& decisions);

// The command, options and decisions of a file of mode "program" read from
// `path`, into `options` (replay set). Throws InputError naming the file and
// the key that is wrong.
void program_schedule_options(const std::string& path,
                              const sched::ScheduleFile& file,
                              ProgramExploreOptions& options);

}  // namespace racelab

#endif  // RACELAB_SRC_PROGRAM_SCHEDULE_H_
