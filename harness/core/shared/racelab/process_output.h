// What a parent reads of a child process that ran code under test: its
// captured output and how it died, as the explorers report them.
#ifndef RACELAB_PROCESS_OUTPUT_H_
#define RACELAB_PROCESS_OUTPUT_H_

#include <cstddef>
#include <string>

namespace racelab {

// Everything in the file behind `fd` (a memfd), from its start.
std::string read_all(int fd);

// The last `bytes` of `text`, starting at a line: "...\n<last lines>".
std::string tail(const std::string& text, std::size_t bytes);

// "SIGSEGV (Segmentation fault)".
std::string signal_text(int signal);

}  // namespace racelab

#endif  // RACELAB_PROCESS_OUTPUT_H_
