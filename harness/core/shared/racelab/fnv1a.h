// 64-bit FNV-1a (Fowler-Noll-Vo), byte by byte and continued from a running
// hash: the one checksum racelab's layers use to tell inputs apart (a saved
// schedule's program digest, a finding's fingerprint, a program file's
// identity in a split search, the symbol cache's keys). A check that parts
// belong together, not a signature.
#ifndef RACELAB_SHARED_FNV1A_H_
#define RACELAB_SHARED_FNV1A_H_

#include <cstdint>
#include <string_view>

namespace racelab {

inline constexpr std::uint64_t kFnv1aBasis = 0xcbf29ce484222325ULL;
inline constexpr std::uint64_t kFnv1aPrime = 0x100000001b3ULL;

// `hash` continued over one byte.
constexpr std::uint64_t fnv1a(std::uint64_t hash, unsigned char byte) {
  return (hash ^ byte) * kFnv1aPrime;
}

// `hash` continued over `bytes`.
constexpr std::uint64_t fnv1a(std::uint64_t hash, std::string_view bytes) {
  for (const char c : bytes) hash = fnv1a(hash, static_cast<unsigned char>(c));
  return hash;
}

}  // namespace racelab

#endif  // RACELAB_SHARED_FNV1A_H_
