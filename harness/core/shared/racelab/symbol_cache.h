// The sanitizers' symbolizer, with a memory of what it has looked up.
//
// TSan and ASan turn every frame of every report into a function, a file and
// a line by asking an llvm-symbolizer process over a pipe, one round trip per
// frame, and each process starts its own symbolizer (which first reads the
// binary's debug information). A racy stress run prints hundreds of reports
// whose frames are nearly all the same, and a crash starts a new child, so
// those round trips and start-ups were most of what a buggy case cost.
//
// racelab gives the runtimes their in-process symbolizer hooks
// (__sanitizer_symbolize_code and __sanitizer_symbolize_data): a frame is
// looked up in a cache first, and only a miss asks this process's own
// llvm-symbolizer (started on the first miss, with the runtime's flags and
// the runtime's external_symbolizer_path). The answer is the symbolizer's own
// text, so reports read exactly as before.
//
// The cache is keyed by module path and offset, which do not depend on where
// a process is loaded, so one cache serves every child of a command: the
// parent creates it in shared memory and its children inherit it
// (symbol_cache_environment). Entries are published lock-free, so a child
// killed in the middle of an insert leaves at most one entry unusable.
#ifndef RACELAB_SYMBOL_CACHE_H_
#define RACELAB_SYMBOL_CACHE_H_

#include <cstddef>
#include <string>

namespace racelab {

// The environment entry ("RACELAB_SYMBOL_CACHE_FD=N") that hands this
// process's shared symbol cache to a child started with it; the descriptor
// stays open across exec. Creates the cache on the first call; "" when it
// cannot be made (the child then keeps a cache of its own).
std::string symbol_cache_environment();

// What the cache of this process holds and did, for tests and `racelab
// bench`.
struct SymbolCacheStats {
  std::size_t entries = 0;      // in the (possibly shared) cache
  std::size_t hits = 0;         // this process's lookups answered from it
  std::size_t misses = 0;       // this process's lookups sent to its symbolizer
  int symbolizers_started = 0;  // by this process
  bool shared = false;          // the cache is one a parent handed down
};
SymbolCacheStats symbol_cache_stats();

// For a run's watchdog: how many lookups this process has begun, and whether
// one is under way. A report being symbolized is a run that progresses, even
// while the symbolizer starts (it reads the binary's debug information first,
// which takes long on a busy machine); a crash's report must not be mistaken
// for a hang.
struct SymbolizerActivity {
  std::size_t lookups = 0;
  bool busy = false;
};
SymbolizerActivity symbolizer_activity();

namespace symbol_cache_internal {
// Copies a symbolizer's answer `text` (lines, then an empty line) into a
// buffer of `max` bytes, cutting its longest lines short (with "...") when
// it does not fit; returns the length written, -1 when it cannot fit.
long fit_answer(const char* text, long len, char* out, int max);
}  // namespace symbol_cache_internal

}  // namespace racelab

#endif  // RACELAB_SYMBOL_CACHE_H_
