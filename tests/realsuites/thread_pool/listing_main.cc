// Build glue, not upstream code: BS::thread_pool's test program
// (tests/BS_thread_pool_test.cpp, unchanged) with a main that follows
// racelab's listing convention, so that `racelab explore --tests` can run
// its checks one at a time: --racelab-list-tests prints the names below,
// --racelab-test=<name> runs that check alone and exits 1 if any of its
// checks failed. The list is the upstream main's "tests" section, in its
// order, without the native extensions (not compiled in); the upstream
// main (the whole sequence and the benchmarks) is left unused.
#include <cstdio>
#include <string_view>

#define main bs_thread_pool_test_main
#include "tests/BS_thread_pool_test.cpp"
#undef main

namespace {

struct Check {
  const char* name;
  void (*run)();
};

constexpr Check kChecks[] = {
    {"constructor", check_constructor},
    {"reset", check_reset},
    {"detach_task", [] { check_task("detach_task()"); }},
    {"submit_task", [] { check_task("submit_task()"); }},
    {"member_function", check_member_function},
    {"member_function_within_object", check_member_function_within_object},
    {"callables", check_callables},
    {"wait", check_wait},
    {"wait_blocks", check_wait_blocks},
    {"wait_for", check_wait_for},
    {"wait_until", check_wait_until},
    {"wait_multiple_deadlock", check_wait_multiple_deadlock},
    {"wait_self_deadlock", check_wait_self_deadlock},
    {"exceptions_submit", check_exceptions_submit},
    {"exceptions_multi_future", check_exceptions_multi_future},
    {"loop", check_loop},
    {"blocks", check_blocks},
    {"sequence", check_sequence},
    {"task_monitoring", check_task_monitoring},
    {"pausing", check_pausing},
    {"purge", check_purge},
    {"vectors", check_vectors},
    {"priority", check_priority},
    {"init", check_init},
    {"cleanup", check_cleanup},
    {"get_pool", check_get_pool},
    {"copy_all", check_copy_all},
    {"shared_ptr_all", check_shared_ptr_all},
    {"task_destruct", check_task_destruct},
    {"common_index_type", check_common_index_type},
};

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view kOne = "--racelab-test=";
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--racelab-list-tests") {
      for (const Check& check : kChecks) std::printf("%s\n", check.name);
      return 0;
    }
    if (arg.substr(0, kOne.size()) == kOne) {
      const std::string_view name = arg.substr(kOne.size());
      for (const Check& check : kChecks) {
        if (name != check.name) continue;
        check.run();
        return test_results::tests_failed > 0 ? 1 : 0;
      }
      std::fprintf(stderr, "no test named '%s'\n", argv[i] + kOne.size());
      return 2;
    }
  }
  std::fprintf(stderr,
               "usage: %s --racelab-list-tests | --racelab-test=<name>\n",
               argv[0]);
  return 2;
}
