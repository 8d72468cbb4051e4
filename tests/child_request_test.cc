// The request a case run's child reads (child_request.h): written and read
// back unchanged; a malformed one is refused with one line, and the child
// command exits 2 on it.
#include "racelab/child_request.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "racelab/runner.h"

namespace racelab {
namespace {

ChildRequest sample() {
  ChildRequest r;
  r.subject = "state/snapshot";
  r.scenario = "seed_slow_reader";
  r.run.mode = Mode::kControlled;
  r.run.seed = 18446744073709551615ull;  // the largest seed survives JSON
  r.run.run_index = 7;
  r.run.jitter = true;
  r.run.pause_us = 123;
  r.run.oracles.erase(Oracle::kTsan);
  r.run.oracles.erase(Oracle::kGomap);
  r.run.strategy = "dfs";
  r.run.depth = 4;
  r.run.preemptions = 3;
  r.run.budget = 99;
  r.run.shrink = false;
  r.run_timeout_ms = 4321;
  r.replay_schedule = "racelab-schedule 1\nsubject \"a b\"\n";
  return r;
}

TEST(ChildRequest, RoundTrips) {
  const ChildRequest in = sample();
  const std::string text = write_child_request(in);
  EXPECT_EQ(text.find('\n'), std::string::npos) << "one line";
  const ChildRequest out = parse_child_request(text);
  EXPECT_EQ(out.subject, in.subject);
  EXPECT_EQ(out.scenario, in.scenario);
  EXPECT_EQ(out.run.mode, in.run.mode);
  EXPECT_EQ(out.run.seed, in.run.seed);
  EXPECT_EQ(out.run.run_index, in.run.run_index);
  EXPECT_EQ(out.run.jitter, in.run.jitter);
  EXPECT_EQ(out.run.pause_us, in.run.pause_us);
  EXPECT_EQ(out.run.oracles, in.run.oracles);
  EXPECT_EQ(out.run.strategy, in.run.strategy);
  EXPECT_EQ(out.run.depth, in.run.depth);
  EXPECT_EQ(out.run.preemptions, in.run.preemptions);
  EXPECT_EQ(out.run.budget, in.run.budget);
  EXPECT_EQ(out.run.shrink, in.run.shrink);
  EXPECT_EQ(out.run_timeout_ms, in.run_timeout_ms);
  EXPECT_EQ(out.replay_schedule, in.replay_schedule);
  EXPECT_EQ(write_child_request(out), text);
}

TEST(ChildRequest, ReadsFromADescriptor) {
  const int fd = child_request_memfd(sample());
  ASSERT_GE(fd, 0);
  EXPECT_EQ(read_child_request(fd).run.budget, 99);
  EXPECT_EQ(read_child_request(fd).subject, "state/snapshot");  // again
  ::close(fd);
}

// The message of the InputError that parsing `text` throws.
std::string error_of(const std::string& text) {
  try {
    parse_child_request(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// `text` with its one `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from,
                     const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(ChildRequest, MalformedRequestsAreRefusedInOneLine) {
  std::string good = write_child_request(sample());
  std::string other_version = good;
  other_version.replace(other_version.find("\"version\":1"), 11,
                        "\"version\":9");
  std::string bad_mode = good;
  bad_mode.replace(bad_mode.find("\"controlled\""), 12, "\"sideways\"");
  std::string bad_type = good;
  bad_type.replace(bad_type.find("\"budget\":99"), 11, "\"budget\":\"x\"");
  std::string bad_oracle = good;
  bad_oracle.replace(bad_oracle.find("\"oracles\":\""), 11,
                     "\"oracles\":\"nope,");
  const std::pair<std::string, std::string> cases[] = {
      {"", "not a JSON object"},
      {"{not json", "not a JSON object"},
      {"[1,2]", "not a JSON object"},
      {"{}", "has version (none)"},
      {other_version, "has version 9; this racelab reads version 1"},
      {bad_mode, "unknown mode 'sideways'"},
      {bad_type, "field 'budget' is \"x\", not a whole number in range"},
      {replaced(good, "\"strategy\":\"dfs\"", "\"strategy\":7"),
       "field 'strategy' is missing or of the wrong type"},
      {"{\"version\":1}", "field 'subject' is missing"},
      {bad_oracle, "nope"},
      {replaced(good, "\"seed\":18446744073709551615", "\"seed\":-1"),
       "field 'seed' is -1, not a whole number in range"},
      {replaced(good, "\"depth\":4", "\"depth\":4294967296"),
       "field 'depth' is 4294967296, not a whole number in range"},
      {replaced(good, "\"pause_us\":123", "\"pause_us\":1.5"),
       "field 'pause_us' is 1.5, not a whole number in range"},
  };
  for (const auto& [text, want] : cases) {
    const std::string message = error_of(text);
    EXPECT_NE(message.find(want), std::string::npos)
        << "input: " << text << "\nmessage: " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("the run's request", 0), 0u) << message;
  }
}

// `racelab __child` with `request` on descriptor 4: its exit status, and what
// it wrote on stderr.
int run_child(const std::string& request, std::string* err) {
  const int memfd = ::memfd_create("request", 0);
  if (memfd < 0 || ::write(memfd, request.data(), request.size()) !=
                       static_cast<ssize_t>(request.size())) {
    ADD_FAILURE() << "memfd";
    return -1;
  }
  int errs[2], results[2];
  if (::pipe(errs) != 0 || ::pipe(results) != 0) return -1;
  // Above the descriptors the child is set up on, so that setting those up
  // overwrites none of them.
  const int high_memfd = ::fcntl(memfd, F_DUPFD, 10);
  const int high_err = ::fcntl(errs[1], F_DUPFD, 10);
  const int high_results = ::fcntl(results[1], F_DUPFD, 10);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(high_err, 2);
    ::dup2(high_results, 3);
    ::dup2(high_memfd, 4);
    ::execl(RACELAB_BINARY, RACELAB_BINARY, "__child",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  for (int fd :
       {errs[1], results[1], memfd, high_memfd, high_err, high_results})
    ::close(fd);
  char buf[4096];
  for (ssize_t n; (n = ::read(errs[0], buf, sizeof buf)) > 0;)
    err->append(buf, static_cast<std::size_t>(n));
  ::close(errs[0]);
  ::close(results[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ChildRequest, TheChildCommandExits2OnAMalformedRequest) {
  std::string err;
  EXPECT_EQ(run_child("{\"version\":1,\"subject\":3}", &err), 2);
  EXPECT_EQ(err,
            "racelab: the run's request: field 'subject' is missing or of the "
            "wrong type\n");
}

}  // namespace
}  // namespace racelab
