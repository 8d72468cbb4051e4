// A whole program for `racelab explore -- ./racelab_native_program <name>
// buggy|fixed`: runs one program of programs.h in main, as an unmodified
// program would. Linked with racelab::runtime; run alone, it simply runs.
#include <cstdio>
#include <cstring>
#include <string>

#include "programs.h"

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[2], "buggy") != 0 &&
                    std::strcmp(argv[2], "fixed") != 0)) {
    std::fprintf(stderr, "usage: %s <program> buggy|fixed\n", argv[0]);
    return 2;
  }
  for (const auto& program : racelab::native_programs::programs()) {
    if (program.name == std::string(argv[1])) {
      program.run(std::strcmp(argv[2], "fixed") == 0);
      return 0;
    }
  }
  std::fprintf(stderr, "%s: no program '%s'\n", argv[0], argv[1]);
  return 2;
}
