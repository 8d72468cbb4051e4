// raw_syscall(): syscall(2) with every argument passed as a long, for code
// that must not go through libc's wrappers or racelab's interposed syscall()
// (a forked child before exec, the sanitizer runtime's symbolizer hooks, a
// watchdog whose process is stuck, the scheduler's own futexes).
#ifndef RACELAB_RAW_SYSCALL_H_
#define RACELAB_RAW_SYSCALL_H_

#include <unistd.h>

#include <type_traits>

namespace racelab {

// syscall() reads every argument as a long, and an int passed through its
// varargs leaves the upper half undefined (the sixth argument, on the stack,
// really does hold garbage there), so each argument is widened first. Not
// instrumented: the symbol cache calls it from inside the sanitizer runtime.
template <class T>
__attribute__((no_sanitize("thread", "address", "memory", "undefined"),
               disable_sanitizer_instrumentation)) inline long
syscall_argument(T value) {
  if constexpr (std::is_null_pointer_v<T>) {
    return 0;
  } else if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<long>(value);
  } else {
    return static_cast<long>(value);
  }
}

// libc's syscall(), past racelab's own (interpose_futex.cc), which models
// futex waits of the threads of a controlled run: the harness's futexes (the
// baton's hand-off) are real ones. Resolved before main, so that a forked
// child can call it.
long kernel_syscall(long number, long a0, long a1, long a2, long a3, long a4,
                    long a5);

template <class... Args>
__attribute__((no_sanitize("thread", "address", "memory", "undefined"),
               disable_sanitizer_instrumentation)) inline long
raw_syscall(long number, Args... args) {
  static_assert(sizeof...(Args) <= 6, "a system call has at most 6 arguments");
  long list[6] = {syscall_argument(args)...};
  return kernel_syscall(number, list[0], list[1], list[2], list[3], list[4],
                        list[5]);
}

}  // namespace racelab

#endif  // RACELAB_RAW_SYSCALL_H_
