// raw_syscall(): syscall(2) with every argument passed as a long, for code
// that must not go through libc's wrappers (a forked child before exec, the
// sanitizer runtime's symbolizer hooks, a watchdog whose process is stuck).
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

template <class... Args>
__attribute__((no_sanitize("thread", "address", "memory", "undefined"),
               disable_sanitizer_instrumentation)) inline long
raw_syscall(long number, Args... args) {
  return syscall(number, syscall_argument(args)...);
}

}  // namespace racelab

#endif  // RACELAB_RAW_SYSCALL_H_
