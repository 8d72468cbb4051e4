// ThreadSanitizer's defaults for a program racelab explores: no sleep at
// exit. TSan sleeps `atexit_sleep_ms` (1 s by default) when main returns
// with threads still running, so that they may race with the exit; under
// `racelab explore` such threads are held where the run left them (the run
// ended with main), and the sleep would only wait for them, a second of
// every such schedule. A run without racelab (no channel in the
// environment) keeps TSan's defaults, and TSAN_OPTIONS, read after these
// defaults, overrides them; a program's own __tsan_default_options (a
// strong definition) wins over this weak one.
//
// TSan calls it while it starts, before libc has set `environ` and before
// any of the program's code: the file is compiled without instrumentation,
// and reads /proc/self/environ with system calls of its own.
#include <fcntl.h>
#include <sys/syscall.h>

#include "racelab/program_channel.h"

namespace racelab::runtime_internal {
namespace {

#if defined(__x86_64__)
long system_call(long number, long a, long b, long c) {
  long result;
  asm volatile("syscall"
               : "=a"(result)
               : "a"(number), "D"(a), "S"(b), "d"(c)
               : "rcx", "r11", "memory");
  return result;
}
#elif defined(__aarch64__)
long system_call(long number, long a, long b, long c) {
  register long x8 asm("x8") = number;
  register long x0 asm("x0") = a;
  register long x1 asm("x1") = b;
  register long x2 asm("x2") = c;
  asm volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
}
#else
long system_call(long, long, long, long) { return -1; }
#endif

// Whether the environment holds racelab's channel variable (NAME=...).
bool under_racelab() {
  const long fd = system_call(SYS_openat, AT_FDCWD,
                              reinterpret_cast<long>("/proc/self/environ"),
                              O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const char* name = program_channel::kEnvironmentVariable;
  long matched = 0;  // bytes of "NAME=" matched in this entry; -1: none
  bool found = false;
  char buffer[4096];
  long got;
  while (!found &&
         (got = system_call(SYS_read, fd, reinterpret_cast<long>(buffer),
                            sizeof buffer)) > 0) {
    for (long i = 0; i < got && !found; ++i) {
      const char c = buffer[i];
      if (c == '\0') {
        matched = 0;
      } else if (matched >= 0) {
        const char want = name[matched] != '\0' ? name[matched] : '=';
        if (c != want) {
          matched = -1;
        } else if (name[matched++] == '\0') {
          found = true;
        }
      }
    }
  }
  system_call(SYS_close, fd, 0, 0);
  return found;
}

}  // namespace

// Referenced by program_main.cc, so that the linker takes this file out of
// the archive with it.
void keep_tsan_defaults() {}

}  // namespace racelab::runtime_internal

extern "C" __attribute__((weak, used, visibility("default"))) const char*
__tsan_default_options() {
  return racelab::runtime_internal::under_racelab() ? "atexit_sleep_ms=0" : "";
}
