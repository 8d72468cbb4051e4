// harness_side.cc again, compiled without its own copies of inline functions
// (own_copies_left_shared_hides_the_race, CMakeLists.txt).
#include "harness_side.cc"  // NOLINT(bugprone-suspicious-include)
