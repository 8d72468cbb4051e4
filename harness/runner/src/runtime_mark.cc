// The check of a program's file before it runs; see runtime_mark.h.
#include "runtime_mark.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "racelab/internal/input_error.h"
#include "racelab/program_channel.h"

namespace racelab {
namespace {

// Reads exactly `size` bytes at `offset`; false when the file is shorter.
bool read_at(int fd, void* into, std::size_t size, std::uint64_t offset) {
  auto* bytes = static_cast<char*>(into);
  while (size > 0) {
    const ssize_t n = ::pread(fd, bytes, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

// Empty when the file carries the mark, else what is wrong with it.
std::string mark_problem(int fd, std::uint64_t file_size) {
  const std::string not_linked =
      "not linked with racelab::runtime (build it with -fsanitize=thread and "
      "link the CMake target racelab::runtime)";
  Elf64_Ehdr header;
  if (!read_at(fd, &header, sizeof header, 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
    return "not an ELF executable (a script or another format cannot carry "
           "racelab::runtime)";
  }
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_machine != EM_X86_64) {
    return "not a 64-bit x86-64 ELF file";
  }
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 ||
      header.e_shnum > 65000 || header.e_shstrndx >= header.e_shnum ||
      header.e_shoff > file_size ||
      header.e_shnum * sizeof(Elf64_Shdr) > file_size - header.e_shoff) {
    return not_linked;
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!read_at(fd, sections.data(), sections.size() * sizeof(Elf64_Shdr),
               header.e_shoff)) {
    return not_linked;
  }
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  if (names.sh_offset > file_size ||
      names.sh_size > file_size - names.sh_offset ||
      names.sh_size > (std::uint64_t{16} << 20)) {
    return not_linked;
  }
  std::string table(names.sh_size, '\0');
  if (!read_at(fd, table.data(), table.size(), names.sh_offset))
    return not_linked;
  const std::string_view wanted = program_channel::kRuntimeSection;
  const std::string_view mark = program_channel::kRuntimeMark;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_name >= table.size()) continue;
    const std::string_view name(table.c_str() + section.sh_name);
    if (name != wanted) continue;
    if (section.sh_type != SHT_PROGBITS || section.sh_size < mark.size() ||
        section.sh_offset > file_size ||
        mark.size() > file_size - section.sh_offset) {
      return not_linked;
    }
    std::string content(mark.size(), '\0');
    if (!read_at(fd, content.data(), content.size(), section.sh_offset))
      return not_linked;
    if (content != mark) {
      return absl::StrCat(
          "linked with another version of racelab::runtime (its mark is '",
          std::string(content.c_str()), "', this racelab reads '",
          std::string(mark), "'): rebuild it against this racelab");
    }
    return "";
  }
  return not_linked;
}

}  // namespace

CheckedProgram::~CheckedProgram() {
  if (fd_ >= 0) ::close(fd_);
}

CheckedProgram::CheckedProgram(CheckedProgram&& other) noexcept
    : fd_(other.fd_), path_(std::move(other.path_)) {
  other.fd_ = -1;
}

CheckedProgram& CheckedProgram::operator=(CheckedProgram&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
  }
  return *this;
}

std::string resolve_program(const std::string& where, const std::string& name) {
  if (name.empty())
    throw InputError(absl::StrCat(where, ": empty program name"));
  std::string found = name;
  if (name.find('/') == std::string::npos) {
    const char* path = std::getenv("PATH");
    found.clear();
    const std::string dirs =
        path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
    for (std::size_t start = 0; start <= dirs.size();) {
      std::size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      std::string dir = dirs.substr(start, end - start);
      start = end + 1;
      const std::string candidate =
          absl::StrCat(dir.empty() ? std::string(".") : dir, "/", name);
      if (::access(candidate.c_str(), X_OK) == 0) {
        found = candidate;
        break;
      }
    }
    if (found.empty()) {
      throw InputError(absl::StrCat(where, ": ", name, ": not found in PATH"));
    }
  }
  std::error_code ec;
  std::filesystem::path absolute =
      std::filesystem::absolute(found, ec).lexically_normal();
  if (ec) throw InputError(absl::StrCat(where, ": ", name, ": ", ec.message()));
  return absolute.string();
}

CheckedProgram open_runtime_program(const std::string& where,
                                    const std::string& path) {
  auto reject = [&](const std::string& why) {
    throw InputError(absl::StrCat(where, ": ", path, ": ", why));
  };
  if (path.empty() || path.front() != '/') reject("not an absolute path");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) reject(std::strerror(errno));
  CheckedProgram program;
  program.fd_ = fd;
  program.path_ = path;
  struct stat st;
  if (::fstat(fd, &st) != 0) reject(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) reject("not a regular file");
  if (::faccessat(AT_FDCWD, path.c_str(), X_OK, AT_EACCESS) != 0 ||
      (st.st_mode & 0111) == 0) {
    reject("not executable");
  }
  if (std::string problem =
          mark_problem(fd, static_cast<std::uint64_t>(st.st_size));
      !problem.empty()) {
    reject(problem);
  }
  return program;
}

}  // namespace racelab
