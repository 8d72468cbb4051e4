// racelab's sanitizer defaults (from sanitizers/*.options), compiled in so that
// every racelab process, the case children included, starts with them.
#include "racelab_sanitizer_options.h"

extern "C" {
__attribute__((used, visibility("default"))) const char* __tsan_default_options() {
  return RACELAB_TSAN_OPTIONS;
}
__attribute__((used, visibility("default"))) const char* __asan_default_options() {
  return RACELAB_ASAN_OPTIONS;
}
}
