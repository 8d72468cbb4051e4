// What racelab writes into an output folder (`--out DIR`), so that it
// replaces or removes only its own files: the report files, logs/ with the
// failing runs' logs, the temporaries of the atomic writer, and a marker file
// that says racelab wrote the set. Every function here works relative to an
// open folder and never follows a symbolic link.
#ifndef RACELAB_HARNESS_RUNNER_REPORT_SET_H_
#define RACELAB_HARNESS_RUNNER_REPORT_SET_H_

#include <cstddef>
#include <string>
#include <vector>

namespace racelab {

// The marker file in every set of reports racelab writes.
inline constexpr char kReportSetMarker[] = ".racelab-reports";

// The marker's content.
std::string report_set_marker_text();

// Creates the marker in the open folder `dir_fd`. Returns 0 or an errno.
int write_report_set_marker(int dir_fd);

// What a folder holds, as far as racelab's report set is concerned.
struct ReportSetContents {
  bool has_marker = false;    // the marker, a regular file
  std::size_t own = 0;        // entries racelab writes (files of logs/ too)
  std::size_t foreign = 0;    // anything else, symbolic links included
  std::string first_foreign;  // the first such name in sorted order
  int error = 0;              // an errno if the folder could not be read
};

// Looks at the open folder `dir_fd` (and its logs/) without following any
// symbolic link.
ReportSetContents inspect_report_set(int dir_fd);

// "holds 12 entries racelab did not write, such as 'src'" and the like: why
// a folder with `contents` is not racelab's to replace; empty when it is (it
// has the marker and only racelab's entries, or it is empty).
std::string why_not_a_report_set(const ReportSetContents& contents);

// Fills `names` with the names in the open folder `dir_fd`, sorted, without
// "." and "..". Returns 0 or an errno.
int list_folder(int dir_fd, std::vector<std::string>& names);

// Removes the folder `name` in the open folder `parent_fd` if it is a real
// folder (not a symbolic link) holding only entries racelab writes: only
// those are unlinked, one by one, never following a link. With
// `need_marker`, a folder without the marker is left alone. Returns whether
// the folder is gone.
bool remove_report_set(int parent_fd, const std::string& name,
                       bool need_marker);

}  // namespace racelab

#endif  // RACELAB_HARNESS_RUNNER_REPORT_SET_H_
