// The out-of-line Abseil string functions the core calls, for the libc++
// build (RACELAB_LIBCXX, cmake/Libcxx.cmake). Debian's libabsl is built
// against libstdc++: its StrCat returns a std::__cxx11::string, which code
// built with -stdlib=libc++ (std::__1::string) cannot link. Everything else
// the core uses from Abseil is header code or has no std type in its
// signature; these few are defined here again, with the same behaviour, and
// mangle to the libc++ names, so they never collide with the library's.
#include <initializer_list>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace absl {
ABSL_NAMESPACE_BEGIN

namespace strings_internal {

std::string CatPieces(std::initializer_list<absl::string_view> pieces) {
  std::size_t size = 0;
  for (absl::string_view piece : pieces) size += piece.size();
  std::string result;
  result.reserve(size);
  for (absl::string_view piece : pieces) {
    result.append(piece.data(), piece.size());
  }
  return result;
}

// Concatenates first, so a piece that points into *dest stays valid.
void AppendPieces(std::string* dest,
                  std::initializer_list<absl::string_view> pieces) {
  dest->append(CatPieces(pieces));
}

}  // namespace strings_internal

std::string StrCat(const AlphaNum& a, const AlphaNum& b) {
  return strings_internal::CatPieces({a.Piece(), b.Piece()});
}

std::string StrCat(const AlphaNum& a, const AlphaNum& b, const AlphaNum& c) {
  return strings_internal::CatPieces({a.Piece(), b.Piece(), c.Piece()});
}

std::string StrCat(const AlphaNum& a, const AlphaNum& b, const AlphaNum& c,
                   const AlphaNum& d) {
  return strings_internal::CatPieces(
      {a.Piece(), b.Piece(), c.Piece(), d.Piece()});
}

void StrAppend(std::string* dest, const AlphaNum& a) {
  strings_internal::AppendPieces(dest, {a.Piece()});
}

void StrAppend(std::string* dest, const AlphaNum& a, const AlphaNum& b) {
  strings_internal::AppendPieces(dest, {a.Piece(), b.Piece()});
}

void StrAppend(std::string* dest, const AlphaNum& a, const AlphaNum& b,
               const AlphaNum& c) {
  strings_internal::AppendPieces(dest, {a.Piece(), b.Piece(), c.Piece()});
}

void StrAppend(std::string* dest, const AlphaNum& a, const AlphaNum& b,
               const AlphaNum& c, const AlphaNum& d) {
  strings_internal::AppendPieces(dest,
                                 {a.Piece(), b.Piece(), c.Piece(), d.Piece()});
}

ABSL_NAMESPACE_END
}  // namespace absl
