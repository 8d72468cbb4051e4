// InputError: the input of a run was wrong (a schedule that cannot be
// replayed, a program that does not parse). Reported as a usage error, exit
// status 2, never as a finding against the store.
#ifndef RACELAB_INPUT_ERROR_H_
#define RACELAB_INPUT_ERROR_H_

#include <stdexcept>

namespace racelab {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace racelab

#endif  // RACELAB_INPUT_ERROR_H_
