// racelab's symbolizer for the sanitizer runtimes (racelab/symbol_cache.h):
// the runtime asks it, a frame is sent to llvm-symbolizer once and answered
// from the cache after that, and a child started with the parent's cache
// answers from what an earlier child looked up, without a symbolizer of its
// own.
#include "racelab/symbol_cache.h"

#include <sanitizer/common_interface_defs.h>
#include <stdio.h>

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace racelab {
namespace {

bool built_with_a_sanitizer() {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
  return true;
#endif
#endif
  return false;
}

__attribute__((noinline)) std::string where_am_i() {
  char text[1024] = "";
  __sanitizer_symbolize_pc(__builtin_return_address(0), "%F at %s:%l", text,
                           sizeof text);
  return text;
}

__attribute__((noinline)) std::string called_from_here() {
  return where_am_i();
}

TEST(SymbolCache, TheRuntimeAsksRacelabAndAFrameIsLookedUpOnce) {
  if (!built_with_a_sanitizer()) GTEST_SKIP() << "a sanitizer build only";
  const SymbolCacheStats before = symbol_cache_stats();
  const std::string first = called_from_here();
  const SymbolCacheStats after_first = symbol_cache_stats();
  const std::string second = called_from_here();
  const SymbolCacheStats after_second = symbol_cache_stats();
  EXPECT_NE(first.find("called_from_here"), std::string::npos) << first;
  EXPECT_NE(first.find("symbol_cache_test.cc"), std::string::npos) << first;
  EXPECT_EQ(first, second);
  EXPECT_EQ(after_first.misses, before.misses + 1);
  EXPECT_EQ(after_second.misses, after_first.misses);
  EXPECT_EQ(after_second.hits, after_first.hits + 1);
}

// The child's side of the next test, which alone runs it: symbolize, then
// print what it took.
// An answer longer than the runtime's buffer keeps every frame's lines, the
// long ones cut short; before, the symbolizer was restarted (and after three
// restarts the process gave up symbolizing).
TEST(SymbolCache, AnAnswerTooLongForTheRuntimeKeepsEveryLine) {
  const std::string name(3000, 'f');
  std::string answer;
  for (int frame = 0; frame < 8; ++frame) {
    answer += name + std::to_string(frame) + "\n";
    answer += "/src/store.h:" + std::to_string(frame + 10) + ":5\n";
  }
  answer += "\n";
  char out[4096];
  const long n = symbol_cache_internal::fit_answer(
      answer.data(), static_cast<long>(answer.size()), out, sizeof out);
  ASSERT_GT(n, 0);
  ASSERT_LT(n, static_cast<long>(sizeof out));
  const std::string fitted(out, static_cast<std::size_t>(n));
  EXPECT_EQ(fitted.size(), std::strlen(out));
  EXPECT_TRUE(fitted.ends_with(":5\n\n")) << fitted;
  for (int frame = 0; frame < 8; ++frame) {
    EXPECT_NE(
        fitted.find("/src/store.h:" + std::to_string(frame + 10) + ":5\n"),
        std::string::npos);
  }
  EXPECT_NE(fitted.find("fff...\n"), std::string::npos);
  // One that fits is copied as it is.
  const std::string small = "main\n/src/main.cc:3:1\n\n";
  ASSERT_EQ(symbol_cache_internal::fit_answer(
                small.data(), static_cast<long>(small.size()), out, sizeof out),
            static_cast<long>(small.size()));
  EXPECT_EQ(std::string(out), small);
  // So many frames that not even their locations fit: no answer.
  EXPECT_EQ(symbol_cache_internal::fit_answer(
                answer.data(), static_cast<long>(answer.size()), out, 64),
            -1);
}

TEST(SymbolCacheChild, DISABLED_PrintsWhatItLookedUp) {
  const std::string text = called_from_here();
  const SymbolCacheStats s = symbol_cache_stats();
  std::printf("@@ shared=%d misses=%zu hits=%zu started=%d text=%s\n",
              s.shared ? 1 : 0, s.misses, s.hits, s.symbolizers_started,
              text.c_str());
}

std::string run_child(const std::string& cache_entry) {
  const std::string command =
      cache_entry + " /proc/" + std::to_string(::getpid()) +
      "/exe --gtest_also_run_disabled_tests"
      " --gtest_filter=SymbolCacheChild.DISABLED_PrintsWhatItLookedUp";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;)
    out.append(buf, n);
  ::pclose(pipe);
  const size_t at = out.find("@@ ");
  return at == std::string::npos ? out
                                 : out.substr(at, out.find('\n', at) - at);
}

TEST(SymbolCache, ChildrenShareTheCacheOfTheirParent) {
  if (!built_with_a_sanitizer()) GTEST_SKIP() << "a sanitizer build only";
  const std::string entry = symbol_cache_environment();
  ASSERT_EQ(entry.rfind("RACELAB_SYMBOL_CACHE_FD=", 0), 0u) << entry;
  const std::string first = run_child(entry);
  const std::string second = run_child(entry);
  // The first child looked the frame up itself; the second found it.
  EXPECT_NE(first.find("shared=1 misses=1 hits=0 started=1 text="),
            std::string::npos)
      << first;
  EXPECT_NE(second.find("shared=1 misses=0 hits=1 started=0 text="),
            std::string::npos)
      << second;
  EXPECT_EQ(first.substr(first.find("text=")),
            second.substr(second.find("text=")));
  EXPECT_NE(second.find("called_from_here"), std::string::npos) << second;
  // Without the parent's cache, a child starts from nothing.
  const std::string alone = run_child("");
  EXPECT_NE(alone.find("shared=0 misses=1 hits=0 started=1"), std::string::npos)
      << alone;
}

}  // namespace
}  // namespace racelab
