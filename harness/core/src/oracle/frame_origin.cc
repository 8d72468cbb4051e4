// Whose code a symbolized frame runs (FrameOrigin), judged from its file.
#include <array>
#include <string_view>
#include <utility>

#include "racelab/finding.h"

namespace racelab {
namespace {

constexpr std::array<std::pair<FrameOrigin, const char*>, 3> kNames = {{
    {FrameOrigin::kUser, "user"},
    {FrameOrigin::kLibrary, "library"},
    {FrameOrigin::kRacelab, "racelab"},
}};

// Folders of racelab's source tree that hold the engine and the drivers of
// the catalog, not a store: their frames are racelab's own.
constexpr std::array<std::string_view, 4> kRacelabFolders = {
    "harness/", "scenarios/", "tools/", "fuzz/"};

// Where system headers, the C++ and C libraries and the sanitizer runtimes
// live (Debian's clang runtimes are built under /build/llvm-toolchain-*).
constexpr std::array<std::string_view, 5> kLibraryPrefixes = {
    "/usr/", "/lib/", "/lib64/", "/build/", "/opt/llvm"};
constexpr std::array<std::string_view, 6> kLibraryParts = {
    "/include/c++/", "/compiler-rt/", "/libstdc++",
    "/libcxx",       "/sysdeps/",     "/nptl/"};

}  // namespace

const char* to_string(FrameOrigin origin) {
  for (const auto& [o, name] : kNames) {
    if (o == origin) return name;
  }
  return "user";
}

std::optional<FrameOrigin> parse_frame_origin(std::string_view name) {
  for (const auto& [o, n] : kNames) {
    if (name == n) return o;
  }
  return std::nullopt;
}

FrameOrigin frame_origin_of(std::string_view file) {
  if (file.empty()) return FrameOrigin::kLibrary;  // no debug info: a runtime
  // racelab's public headers, in the source tree or installed.
  if (file.find("include/racelab/") != std::string_view::npos)
    return FrameOrigin::kRacelab;
  for (std::string_view part : kLibraryParts) {
    if (file.find(part) != std::string_view::npos) return FrameOrigin::kLibrary;
  }
  // Files of racelab's source folder are named relative to it; glibc's debug
  // information names its own "./nptl/...".
  const bool inside =
      file.front() != '/' && !file.starts_with(".") && !file.starts_with("<");
  if (inside) {
    for (std::string_view folder : kRacelabFolders) {
      if (file.starts_with(folder)) return FrameOrigin::kRacelab;
    }
    return FrameOrigin::kUser;  // subjects/, examples/, tests/
  }
  if (file.starts_with("<") || file.starts_with("./"))
    return FrameOrigin::kLibrary;
  for (std::string_view prefix : kLibraryPrefixes) {
    if (file.starts_with(prefix)) return FrameOrigin::kLibrary;
  }
  return FrameOrigin::kUser;  // a file of the user's own project
}

}  // namespace racelab
