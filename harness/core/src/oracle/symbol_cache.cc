// The sanitizers' in-process symbolizer hooks, answered from a cache shared
// with the other processes of a command; see racelab/symbol_cache.h.
//
// The hooks run inside the sanitizer runtime, under its symbolizer lock and
// with its interceptors off, often while a report is being printed. So they
// are not instrumented, allocate nothing, and talk to the world with raw
// system calls only. The cache is one fixed mapping:
//   a header, kSlots slots (a key hash and the entry's place, both published
//   with atomic stores), then an arena of entries (module, offset, flags and
//   the symbolizer's answer), allocated by an atomic bump.
#include "racelab/symbol_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "racelab/fnv1a.h"
#include "racelab/raw_syscall.h"
#include "racelab_sanitizer_options.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RACELAB_HAS_SANITIZER 1
#define RACELAB_RUNTIME_OPTIONS RACELAB_TSAN_OPTIONS
#define RACELAB_RUNTIME_OPTIONS_VARIABLE "TSAN_OPTIONS="
#elif __has_feature(address_sanitizer)
#define RACELAB_HAS_SANITIZER 1
#define RACELAB_RUNTIME_OPTIONS RACELAB_ASAN_OPTIONS
#define RACELAB_RUNTIME_OPTIONS_VARIABLE "ASAN_OPTIONS="
#endif
#endif
#ifndef RACELAB_RUNTIME_OPTIONS
#define RACELAB_RUNTIME_OPTIONS ""
#define RACELAB_RUNTIME_OPTIONS_VARIABLE "TSAN_OPTIONS="
#endif

extern char** environ;

#define RACELAB_RUNTIME_SIDE                                              \
  __attribute__((no_sanitize("thread", "address", "memory", "undefined"), \
                 disable_sanitizer_instrumentation, no_builtin))

namespace racelab {
namespace {

constexpr std::uint64_t kMagic = 0x72616365'6c616231;  // "racelab1"
constexpr std::uint64_t kSlots = 1 << 16;
constexpr std::uint64_t kArenaBytes = 48ull << 20;
constexpr const char* kFdVariable = "RACELAB_SYMBOL_CACHE_FD=";

struct Slot {
  std::uint64_t key;    // hash of the lookup, never 0; 0 is a free slot
  std::uint64_t entry;  // arena offset + 1 of the entry; 0 while unwritten
};
struct Header {
  std::uint64_t magic;
  std::uint64_t arena_used;
  std::uint64_t entries;
};
struct Entry {
  std::uint64_t offset;
  std::uint32_t module_len;
  std::uint32_t text_len;
  std::uint32_t flags;
  std::uint32_t pad;
  // then module_len bytes of module path, then text_len bytes of answer
};
struct Cache {
  Header header;
  Slot slots[kSlots];
  char arena[kArenaBytes];
};
constexpr std::size_t kCacheBytes = sizeof(Cache);

// A lookup's flags: what was asked, and how the answer was made.
constexpr std::uint32_t kData = 1, kNoInlines = 2, kNoDemangle = 4;

// This process's state. The hooks run one at a time (the runtime's
// symbolizer lock); the parent's symbol_cache_environment() runs before any
// child exists.
Cache* g_cache = nullptr;
bool g_shared = false;
bool g_inline_frames = true;
bool g_demangle = true;
int g_tool_fd = -1;
int g_tool_starts = 0;
std::size_t g_hits = 0, g_misses = 0;
// Read by the watchdog's thread while the hooks run: atomic accesses only.
std::size_t g_lookups = 0;
int g_busy = 0;

RACELAB_RUNTIME_SIDE std::size_t length(const char* s) {
  std::size_t n = 0;
  while (s[n] != '\0') ++n;
  return n;
}
RACELAB_RUNTIME_SIDE bool same(const char* a, const char* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}
RACELAB_RUNTIME_SIDE void copy(char* to, const char* from, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
}

RACELAB_RUNTIME_SIDE void* map_cache(int fd) {
  const long p =
      raw_syscall(SYS_mmap, nullptr, kCacheBytes, PROT_READ | PROT_WRITE,
                  fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
                         : MAP_SHARED | MAP_NORESERVE,
                  fd, 0);
  return p < 0 && p > -4096 ? nullptr : reinterpret_cast<void*>(p);
}

// The cache a parent handed down, if the environment names one that is
// really ours; else a private one. nullptr when no memory can be mapped.
RACELAB_RUNTIME_SIDE Cache* cache() {
  if (g_cache != nullptr) return g_cache;
  const std::size_t prefix = length(kFdVariable);
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (!same(*e, kFdVariable, prefix)) continue;
    long fd = 0;
    for (const char* c = *e + prefix; *c >= '0' && *c <= '9'; ++c)
      fd = fd * 10 + (*c - '0');
    struct stat st {};
    if (raw_syscall(SYS_fstat, fd, &st) != 0 ||
        static_cast<std::size_t>(st.st_size) != kCacheBytes)
      break;
    void* p = map_cache(static_cast<int>(fd));
    if (p != nullptr && static_cast<Cache*>(p)->header.magic == kMagic) {
      g_shared = true;
      return g_cache = static_cast<Cache*>(p);
    }
    if (p != nullptr) raw_syscall(SYS_munmap, p, kCacheBytes);
    break;
  }
  g_cache = static_cast<Cache*>(map_cache(-1));
  return g_cache;
}

RACELAB_RUNTIME_SIDE std::uint64_t key_of(const char* module,
                                          std::uint64_t offset,
                                          std::uint32_t flags) {
  // FNV-1a (racelab/fnv1a.h's constants) written out: this runs inside the
  // sanitizer's report path, where no instrumented function may be called,
  // and the shared helper is an ordinary (instrumented) inline function.
  std::uint64_t h = kFnv1aBasis;
  for (const char* c = module; *c != '\0'; ++c) {
    h = (h ^ static_cast<unsigned char>(*c)) * kFnv1aPrime;
  }
  for (int i = 0; i < 8; ++i) {
    h = (h ^ ((offset >> (8 * i)) & 0xff)) * kFnv1aPrime;
  }
  h = (h ^ flags) * kFnv1aPrime;
  return h == 0 ? 1 : h;
}

// The entry a slot points at, if it is this lookup's.
RACELAB_RUNTIME_SIDE const Entry* entry_at(Cache* c, std::uint64_t place,
                                           const char* module,
                                           std::size_t module_len,
                                           std::uint64_t offset,
                                           std::uint32_t flags) {
  if (place == 0 || place - 1 + sizeof(Entry) > kArenaBytes) return nullptr;
  const Entry* e = reinterpret_cast<const Entry*>(c->arena + place - 1);
  if (e->offset != offset || e->flags != flags || e->module_len != module_len ||
      place - 1 + sizeof(Entry) + e->module_len + e->text_len > kArenaBytes)
    return nullptr;
  const char* stored = reinterpret_cast<const char*>(e + 1);
  return same(stored, module, module_len) ? e : nullptr;
}

// Copies the cached answer into `out`; false when there is none.
RACELAB_RUNTIME_SIDE bool look_up(Cache* c, std::uint64_t key,
                                  const char* module, std::size_t module_len,
                                  std::uint64_t offset, std::uint32_t flags,
                                  char* out, int max) {
  for (std::uint64_t i = 0; i < kSlots; ++i) {
    Slot& s = c->slots[(key + i) & (kSlots - 1)];
    const std::uint64_t k = __atomic_load_n(&s.key, __ATOMIC_ACQUIRE);
    if (k == 0) return false;
    if (k != key) continue;
    const Entry* e = entry_at(c, __atomic_load_n(&s.entry, __ATOMIC_ACQUIRE),
                              module, module_len, offset, flags);
    if (e == nullptr) continue;  // a colliding key, or an insert unfinished
    if (e->text_len + 1 > static_cast<std::uint32_t>(max)) return false;
    copy(out, reinterpret_cast<const char*>(e + 1) + module_len, e->text_len);
    out[e->text_len] = '\0';
    return true;
  }
  return false;
}

RACELAB_RUNTIME_SIDE void insert(Cache* c, std::uint64_t key,
                                 const char* module, std::size_t module_len,
                                 std::uint64_t offset, std::uint32_t flags,
                                 const char* text, std::size_t text_len) {
  const std::uint64_t bytes =
      (sizeof(Entry) + module_len + text_len + 7) & ~std::uint64_t{7};
  for (std::uint64_t i = 0; i < kSlots / 2; ++i) {
    Slot& s = c->slots[(key + i) & (kSlots - 1)];
    std::uint64_t expected = 0;
    if (!__atomic_compare_exchange_n(&s.key, &expected, key, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      if (expected == key && __atomic_load_n(&s.entry, __ATOMIC_ACQUIRE) == 0)
        return;  // another process is inserting this very lookup
      continue;
    }
    const std::uint64_t at =
        __atomic_fetch_add(&c->header.arena_used, bytes, __ATOMIC_RELAXED);
    if (at + bytes > kArenaBytes) return;  // full: the slot stays unusable
    Entry* e = reinterpret_cast<Entry*>(c->arena + at);
    e->offset = offset;
    e->module_len = static_cast<std::uint32_t>(module_len);
    e->text_len = static_cast<std::uint32_t>(text_len);
    e->flags = flags;
    copy(reinterpret_cast<char*>(e + 1), module, module_len);
    copy(reinterpret_cast<char*>(e + 1) + module_len, text, text_len);
    __atomic_store_n(&s.entry, at + 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&c->header.entries, 1, __ATOMIC_RELAXED);
    return;
  }
}

// The last `name=` value in a sanitizer options string, into `out`.
RACELAB_RUNTIME_SIDE void option_value(const char* options, const char* name,
                                       char* out, std::size_t max) {
  if (options == nullptr) return;
  const std::size_t n = length(name);
  for (const char* p = options; *p != '\0'; ++p) {
    const bool at_start = p == options || p[-1] == ':' || p[-1] == ' ' ||
                          p[-1] == ',' || p[-1] == '\n' || p[-1] == '\t';
    if (!at_start || !same(p, name, n) || p[n] != '=') continue;
    std::size_t len = 0;
    for (const char* v = p + n + 1;
         *v != '\0' && *v != ':' && *v != ' ' && *v != ',' && *v != '\n' &&
         *v != '\t' && len + 1 < max;
         ++v)
      out[len++] = *v;
    out[len] = '\0';
  }
}

RACELAB_RUNTIME_SIDE const char* env_value(const char* prefix) {
  const std::size_t n = length(prefix);
  for (char** e = environ; e != nullptr && *e != nullptr; ++e)
    if (same(*e, prefix, n)) return *e + n;
  return nullptr;
}

// Starts llvm-symbolizer on one end of a socket pair (a socket, so that a
// symbolizer that died gives an error, not SIGPIPE). The path is the
// runtime's: external_symbolizer_path from racelab's defaults, then from the
// environment's options.
RACELAB_RUNTIME_SIDE bool start_tool() {
  if (g_tool_starts >= 3) return false;  // it keeps dying: stop asking
  ++g_tool_starts;
  char path[4096] = "";
  option_value(RACELAB_RUNTIME_OPTIONS, "external_symbolizer_path", path,
               sizeof path);
  option_value(env_value(RACELAB_RUNTIME_OPTIONS_VARIABLE),
               "external_symbolizer_path", path, sizeof path);
  if (path[0] == '\0') return false;
  int sv[2];
  if (raw_syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) !=
      0)
    return false;
  char inlines[] = "--inlines", no_inlines[] = "--no-inlines";
  char arch[] = "--default-arch=x86_64", no_demangle[] = "--no-demangle";
  char* argv[] = {path, g_inline_frames ? inlines : no_inlines, arch,
                  g_demangle ? nullptr : no_demangle, nullptr};
  const long pid = raw_syscall(SYS_fork);
  if (pid == 0) {
    // The copy only execs: raw calls, nothing the runtime would notice.
    if (raw_syscall(SYS_dup2, sv[1], 0) < 0 ||
        raw_syscall(SYS_dup2, sv[1], 1) < 0)
      raw_syscall(SYS_exit_group, 127);
    raw_syscall(SYS_close_range, 3, ~0u, 0);
    raw_syscall(SYS_execve, path, argv, environ);
    raw_syscall(SYS_exit_group, 127);
  }
  raw_syscall(SYS_close, sv[1]);
  if (pid < 0) {
    raw_syscall(SYS_close, sv[0]);
    return false;
  }
  g_tool_fd = sv[0];
  return true;
}

RACELAB_RUNTIME_SIDE void stop_tool() {
  if (g_tool_fd >= 0) raw_syscall(SYS_close, g_tool_fd);
  g_tool_fd = -1;
}

RACELAB_RUNTIME_SIDE char* put(char* at, const char* end, const char* text) {
  while (*text != '\0' && at < end) *at++ = *text++;
  return at;
}

// One answer of the symbolizer, read whole before it is fitted to the
// runtime's buffer (the hooks run under the runtime's symbolizer lock, one
// at a time).
constexpr long kAnswerBytes = 1 << 18;
char g_answer[kAnswerBytes];

// The length `text` takes when every line is cut to `limit` characters and
// "..." (each line keeps its newline).
RACELAB_RUNTIME_SIDE long fitted_length(const char* text, long len,
                                        long limit) {
  long total = 0, line = 0;
  for (long i = 0; i < len; ++i) {
    if (text[i] == '\n') {
      total += (line > limit ? limit + 3 : line) + 1;
      line = 0;
    } else {
      ++line;
    }
  }
  return total;
}

// Copies the answer `text` (ending with an empty line) into the runtime's
// buffer `out` of `max` bytes. An answer that does not fit (the inlined
// frames of a deeply templated function can take more than the runtime's
// 16 KiB) keeps every frame, with its long lines (the function names) cut
// short, so that the runtime still gets every file and line. Returns the
// length written, or -1 when even that does not fit.
RACELAB_RUNTIME_SIDE long fit_into(const char* text, long len, char* out,
                                   int max) {
  long limit = len;
  if (len >= max) {
    long low = 16, high = len;  // the longest limit that fits
    if (fitted_length(text, len, low) >= max) return -1;
    while (low < high) {
      const long mid = low + (high - low + 1) / 2;
      if (fitted_length(text, len, mid) < max) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    limit = low;
  }
  long at = 0, line = 0;
  for (long i = 0; i < len; ++i) {
    if (text[i] == '\n') {
      if (line > limit) {
        for (int d = 0; d < 3; ++d) out[at++] = '.';
      }
      out[at++] = '\n';
      line = 0;
    } else if (line++ < limit) {
      out[at++] = text[i];
    }
  }
  out[at] = '\0';
  return at;
}

// Asks this process's symbolizer, as the runtime itself would:
// `CODE "module" 0xoffset` (or DATA); the answer ends with an empty line.
RACELAB_RUNTIME_SIDE long ask_tool(const char* module, std::uint64_t offset,
                                   bool data, char* out, int max) {
  if (g_tool_fd < 0 && !start_tool()) return -1;
  char request[4200];
  char* end = request + sizeof request - 24;
  char* p = put(request, end, data ? "DATA \"" : "CODE \"");
  p = put(p, end, module);
  p = put(p, end, "\" 0x");
  char digits[17];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[offset & 0xf];
    offset >>= 4;
  } while (offset != 0);
  while (n > 0) *p++ = digits[--n];
  *p++ = '\n';
  for (const char* q = request; q < p;) {
    const long w =
        raw_syscall(SYS_sendto, g_tool_fd, q, p - q, MSG_NOSIGNAL, nullptr, 0);
    if (w <= 0) {
      stop_tool();
      return -1;
    }
    q += w;
  }
  long got = 0;
  char* answer = g_answer;
  while (got < 2 || answer[got - 1] != '\n' || answer[got - 2] != '\n') {
    if (got >= kAnswerBytes) {  // beyond any frame: resynchronize
      stop_tool();
      return -1;
    }
    const long r =
        raw_syscall(SYS_read, g_tool_fd, answer + got, kAnswerBytes - got);
    if (r <= 0) {
      stop_tool();
      return -1;
    }
    got += r;
  }
  return fit_into(answer, got, out, max);
}

bool look_up_or_ask(const char* module, std::uint64_t offset, bool data,
                    char* out, int max);

RACELAB_RUNTIME_SIDE bool symbolize(const char* module, std::uint64_t offset,
                                    bool data, char* out, int max) {
  __atomic_fetch_add(&g_lookups, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&g_busy, 1, __ATOMIC_RELAXED);
  const bool found = look_up_or_ask(module, offset, data, out, max);
  __atomic_store_n(&g_busy, 0, __ATOMIC_RELAXED);
  return found;
}

RACELAB_RUNTIME_SIDE bool look_up_or_ask(const char* module,
                                         std::uint64_t offset, bool data,
                                         char* out, int max) {
  if (module == nullptr || out == nullptr || max < 2) return false;
  const std::uint32_t flags = (data ? kData : 0) |
                              (g_inline_frames ? 0 : kNoInlines) |
                              (g_demangle ? 0 : kNoDemangle);
  Cache* c = cache();
  const std::size_t module_len = length(module);
  const std::uint64_t key = key_of(module, offset, flags);
  if (c != nullptr &&
      look_up(c, key, module, module_len, offset, flags, out, max)) {
    ++g_hits;
    return true;
  }
  ++g_misses;
  const long got = ask_tool(module, offset, data, out, max);
  if (got < 0) return false;
  if (c != nullptr)
    insert(c, key, module, module_len, offset, flags, out,
           static_cast<std::size_t>(got));
  return true;
}

}  // namespace

std::string symbol_cache_environment() {
#if defined(RACELAB_HAS_SANITIZER)
  static std::once_flag once;
  static std::string entry;
  std::call_once(once, [] {
    const int made = static_cast<int>(
        raw_syscall(SYS_memfd_create, "racelab-symbol-cache", 0));
    if (made < 0) return;
    // Above the descriptors a child's start-up rearranges (0 to 4).
    const int fd = ::fcntl(made, F_DUPFD, 10);
    ::close(made);
    if (fd < 0) return;
    void* p = nullptr;
    if (::ftruncate(fd, static_cast<off_t>(kCacheBytes)) != 0 ||
        (p = map_cache(fd)) == nullptr) {
      ::close(fd);
      return;
    }
    static_cast<Cache*>(p)->header.magic = kMagic;
    // This process uses it too, unless its runtime already made a cache.
    if (g_cache == nullptr) {
      g_cache = static_cast<Cache*>(p);
      g_shared = true;
    }
    entry = absl::StrCat(kFdVariable, fd);
  });
  return entry;
#else
  return "";
#endif
}

SymbolizerActivity symbolizer_activity() {
  return {__atomic_load_n(&g_lookups, __ATOMIC_RELAXED),
          __atomic_load_n(&g_busy, __ATOMIC_RELAXED) != 0};
}

SymbolCacheStats symbol_cache_stats() {
  SymbolCacheStats s;
  if (g_cache != nullptr)
    s.entries = __atomic_load_n(&g_cache->header.entries, __ATOMIC_RELAXED);
  s.hits = g_hits;
  s.misses = g_misses;
  s.symbolizers_started = g_tool_starts;
  s.shared = g_shared;
  return s;
}

namespace symbol_cache_internal {
long fit_answer(const char* text, long len, char* out, int max) {
  return fit_into(text, len, out, max);
}
}  // namespace symbol_cache_internal

}  // namespace racelab

#if defined(RACELAB_HAS_SANITIZER)
// The hooks the runtimes look for (sanitizer_symbolizer_posix_libcdep.cpp:
// with __sanitizer_symbolize_code and __sanitizer_symbolize_data defined,
// they are the runtime's only symbolizer). The answers are llvm-symbolizer's
// own text, which the runtime parses as it would parse its pipe.
extern "C" {
RACELAB_RUNTIME_SIDE bool __sanitizer_symbolize_code(const char* module,
                                                     std::uint64_t offset,
                                                     char* buffer, int max) {
  return racelab::symbolize(module, offset, /*data=*/false, buffer, max);
}
RACELAB_RUNTIME_SIDE bool __sanitizer_symbolize_data(const char* module,
                                                     std::uint64_t offset,
                                                     char* buffer, int max) {
  return racelab::symbolize(module, offset, /*data=*/true, buffer, max);
}
RACELAB_RUNTIME_SIDE bool __sanitizer_symbolize_set_demangle(bool demangle) {
  racelab::g_demangle = demangle;
  return true;
}
RACELAB_RUNTIME_SIDE bool __sanitizer_symbolize_set_inline_frames(
    bool inline_frames) {
  racelab::g_inline_frames = inline_frames;
  return true;
}
}
#endif
