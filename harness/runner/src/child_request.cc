// The child's request: JSON written by the parent, read back by the child.
#include "racelab/child_request.h"

#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "racelab/runner.h"
#include "racelab/schedule_source.h"

namespace racelab {
namespace {

constexpr Mode kModes[] = {Mode::kStress, Mode::kControlled};

Mode mode_named(const std::string& name) {
  for (Mode m : kModes) {
    if (name == to_string(m)) return m;
  }
  throw InputError(
      absl::StrCat("the run's request: unknown mode '", name, "'"));
}

}  // namespace

std::string write_child_request(const ChildRequest& request) {
  const RunRequest& r = request.run;
  nlohmann::json j = {
      {"version", ChildRequest::kVersion},
      {"subject", request.subject},
      {"scenario", request.scenario},
      {"mode", to_string(r.mode)},
      {"seed", r.seed},
      {"run_index", r.run_index},
      {"jitter", r.jitter},
      {"pause_us", r.pause_us},
      {"oracles", to_string(r.oracles)},
      {"strategy", r.strategy},
      {"threads", sched::to_string(r.threads)},
      {"depth", r.depth},
      {"preemptions", r.preemptions},
      {"memory_model", r.memory_model},
      {"budget", r.budget},
      {"shrink", r.shrink},
      {"runs", request.runs},
      {"run_timeout_ms", request.run_timeout_ms},
      {"replay_schedule", request.replay_schedule},
  };
  return j.dump();
}

ChildRequest parse_child_request(std::string_view text) {
  const nlohmann::json j =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    throw InputError("the run's request is not a JSON object");
  }
  const int version = j.contains("version") && j["version"].is_number_integer()
                          ? j["version"].get<int>()
                          : -1;
  if (version != ChildRequest::kVersion) {
    throw InputError(
        absl::StrCat("the run's request has version ",
                     j.contains("version") ? j["version"].dump() : "(none)",
                     "; this racelab reads version ", ChildRequest::kVersion));
  }
  ChildRequest request;
  RunRequest& r = request.run;
  std::string field;
  try {
    auto get = [&](const char* name, auto& into) {
      field = name;
      const nlohmann::json& value = j.at(name);
      using T = std::remove_cvref_t<decltype(into)>;
      if constexpr (std::is_same_v<T, bool>) {
        into = value.get<bool>();
      } else if constexpr (std::is_integral_v<T>) {
        // Whole numbers in the field's range only: nlohmann would wrap -1
        // into a seed or truncate a large number into an int.
        const bool in_range =
            value.is_number_unsigned()
                ? value.get<std::uint64_t>() <=
                      static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                : value.is_number_integer() && std::is_signed_v<T> &&
                      value.get<std::int64_t>() >=
                          static_cast<std::int64_t>(
                              std::numeric_limits<T>::min()) &&
                      value.get<std::int64_t>() <=
                          static_cast<std::int64_t>(
                              std::numeric_limits<T>::max());
        if (!in_range) {
          throw InputError(absl::StrCat("the run's request: field '", name,
                                        "' is ", value.dump(),
                                        ", not a whole number in range"));
        }
        into = value.get<T>();
      } else {
        value.get_to(into);
      }
    };
    std::string mode, oracles, threads = "fibers";
    get("subject", request.subject);
    get("scenario", request.scenario);
    get("mode", mode);
    get("seed", r.seed);
    get("run_index", r.run_index);
    get("jitter", r.jitter);
    get("pause_us", r.pause_us);
    get("oracles", oracles);
    get("strategy", r.strategy);
    get("threads", threads);
    get("depth", r.depth);
    get("preemptions", r.preemptions);
    get("memory_model", r.memory_model);
    get("budget", r.budget);
    get("shrink", r.shrink);
    get("runs", request.runs);
    get("run_timeout_ms", request.run_timeout_ms);
    get("replay_schedule", request.replay_schedule);
    r.mode = mode_named(mode);
    const std::optional<sched::Substrate> substrate =
        sched::parse_substrate(threads);
    if (!substrate) {
      throw InputError(
          absl::StrCat("the run's request: threads must be "
                       "fibers or threads, not '",
                       threads, "'"));
    }
    r.threads = *substrate;
    if (request.runs < 1) {
      throw InputError(absl::StrCat("the run's request: runs is ", request.runs,
                                    ", not at least 1"));
    }
    try {
      r.oracles = parse_oracle_set(oracles);
    } catch (const std::invalid_argument& e) {
      throw InputError(absl::StrCat("the run's request: ", e.what()));
    }
  } catch (const nlohmann::json::exception&) {
    throw InputError(absl::StrCat("the run's request: field '", field,
                                  "' is missing or of the wrong type"));
  }
  return request;
}

std::string run_log_marker(int run) {
  return absl::StrCat("== racelab run ", run, " ==\n");
}

int child_request_memfd(const ChildRequest& request) {
  return schedule_memfd(write_child_request(request));
}

ChildRequest read_child_request(int fd) {
  std::string text;
  char buf[4096];
  off_t at = 0;
  for (;;) {
    // From the start of a file; a pipe is read as it comes.
    ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == ESPIPE) n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw InputError(absl::StrCat("cannot read the run's request on fd ", fd,
                                    ": ", std::strerror(errno)));
    }
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
  return parse_child_request(text);
}

}  // namespace racelab
