// Demangled C++ names as a person writes them, for the reports (not part of
// the public API). The symbolizer gives names such as
//   std::unordered_map<std::__cxx11::basic_string<char, std::char_traits<char>,
//   std::allocator<char> >, Session, std::hash<...>, ...>::operator[](...)
// readable_symbol() turns them into
//   std::unordered_map<std::string, Session>::operator[](const std::string&)
// The full name stays in results.json; reports show this one.
#ifndef RACELAB_SRC_SYMBOL_NAMES_H_
#define RACELAB_SRC_SYMBOL_NAMES_H_

#include <string>
#include <string_view>

namespace racelab {

// The name with
//   - inline and ABI namespaces dropped: std::__cxx11:: and std::__1:: read
//     std::, "(anonymous namespace)::" and "[abi:cxx11]" go;
//   - std::basic_string<char> and its kin spelled std::string, std::wstring,
//     std::string_view, std::ostream, std::ostringstream, ...;
//   - default template arguments of std templates dropped (std::allocator,
//     std::char_traits, std::default_delete, and std::less, std::equal_to,
//     std::hash of the first argument);
//   - template arguments and parameters of library internals (std:: names
//     with a reserved component such as std::_Hashtable, std::__detail::,
//     __gnu_cxx::) elided to <...> and (...);
//   - parameters of an enclosing function ("f(int)::'lambda'()") elided to
//     (...), the return type in front of a template function dropped;
//   - "T const&" written "const T&", and "> >" written ">>".
// User types keep their full names. Without `parameters`, the function's own
// parameter list is elided too ("f(...)"), for frames a reader only needs
// the name of. A name cut short (the input ends inside brackets) is
// rewritten as far as it goes and ends with "…"; text that does not parse
// (a closing bracket without its opening one) comes back with the namespace
// clean-up only.
std::string readable_symbol(std::string_view demangled, bool parameters = true);

// readable_symbol() without the leading namespaces and the parameters
// ("racelab::kv::(anonymous namespace)::Store::put(int)" -> "Store::put"): by
// the project's style a namespace is lower case and a class is not.
std::string short_symbol(std::string_view demangled);

// A sanitizer's text report with its frame lines ("    #3 name file:line:col
// (module+0x2a) (BuildId: ...)") naming functions by readable_symbol()
// without parameters, files without "dir/../", and no build id. Other lines
// keep their words, with the standard library's inline namespaces dropped
// and std::string written as such.
std::string readable_sanitizer_text(std::string_view text);

}  // namespace racelab

#endif  // RACELAB_SRC_SYMBOL_NAMES_H_
