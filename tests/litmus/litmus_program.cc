// One litmus test as a whole program, for `racelab explore --memory-model`:
//
//   litmus_program <test> <relaxed|acqrel|seqcst|fenced> <outcome>
//
// runs the test once (litmus_tests.h) and aborts when it reaches the
// outcome named, so that explore reports the first schedule that reaches
// it (and saves it for `racelab replay`).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "litmus_tests.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <test> <order> <outcome>\n", argv[0]);
    return 2;
  }
  const litmus::Test* test = nullptr;
  for (const litmus::Test& t : litmus::tests()) {
    if (std::strcmp(t.name, argv[1]) == 0) test = &t;
  }
  int order = -1;
  for (litmus::Order o : litmus::kOrders) {
    if (std::strcmp(litmus::order_name(o), argv[2]) == 0) order = o;
  }
  if (test == nullptr || order < 0) {
    std::fprintf(stderr, "litmus_program: unknown test '%s' or order '%s'\n",
                 argv[1], argv[2]);
    return 2;
  }
  const std::string outcome = test->run(static_cast<litmus::Order>(order));
  std::printf("%s\n", outcome.c_str());
  if (outcome == argv[3]) {
    std::fprintf(stderr, "litmus: reached outcome %s\n", argv[3]);
    std::abort();
  }
  return 0;
}
