// readable_symbol(): demangled names as a person writes them; see
// symbol_names.h for the rules.
#include "racelab/symbol_names.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace racelab {
namespace {

constexpr std::size_t kMaxInput = 64 * 1024;
constexpr int kMaxDepth = 128;

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$';
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos;
       at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
}

std::string clean_namespaces(std::string_view in) {
  std::string s(in);
  replace_all(s, "std::__cxx11::", "std::");
  replace_all(s, "std::__1::", "std::");
  replace_all(s, "(anonymous namespace)::", "");
  for (std::size_t at = s.find("[abi:"); at != std::string::npos;
       at = s.find("[abi:", at)) {
    const std::size_t end = s.find(']', at);
    if (end == std::string::npos) break;
    s.erase(at, end - at + 1);
  }
  return s;
}

// The standard library's long spellings in free text (a line of a log that
// is neither a frame nor a summary: a CHECK message, a terminate message, a
// frame line cut short): the string types by their alias, inline namespaces
// dropped.
std::string readable_library_spelling(std::string_view line) {
  std::string s = clean_namespaces(line);
  for (std::string_view spelled :
       {"std::basic_string<char, std::char_traits<char>, std::allocator<char> "
        ">",
        "std::basic_string<char, std::char_traits<char>, "
        "std::allocator<char>>"}) {
    replace_all(s, spelled, "std::string");
  }
  return s;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

// The components of a qualified name, split at "::" outside template
// arguments: "std::thread::_State_impl<...>" -> std, thread, _State_impl<...>.
std::vector<std::string_view> components(std::string_view q) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    if (q[i] == '<') ++depth;
    if (q[i] == '>') --depth;
    if (depth == 0 && q.compare(i, 2, "::") == 0) {
      parts.push_back(q.substr(start, i - start));
      start = i + 2;
      ++i;
    }
  }
  parts.push_back(q.substr(start));
  return parts;
}

// A library internal: a std:: name with a reserved component (_Hashtable,
// __detail, _M_run), or one of the GNU extension and ABI namespaces.
bool is_internal(std::string_view q) {
  if (q.starts_with("__gnu_cxx::") || q.starts_with("__cxxabiv1::"))
    return true;
  if (!q.starts_with("std::")) return false;
  for (std::string_view part : components(q)) {
    if (!part.empty() && part.front() == '_') return true;
  }
  return false;
}

// The qualified name at the end of `out` ("std::thread::_State_impl",
// "Foo<int>::bar", "f()::'lambda'"), or empty.
std::string trailing_name(std::string_view out) {
  std::size_t i = out.size();
  while (i > 0) {
    const char c = out[i - 1];
    if (is_ident_char(c) || c == ':') {
      --i;
    } else if (c == '>') {  // a template argument list: back to its '<'
      int depth = 0;
      std::size_t j = i;
      for (; j > 0; --j) {
        if (out[j - 1] == '>') ++depth;
        if (out[j - 1] == '<' && --depth == 0) break;
      }
      if (j == 0) break;
      i = j - 1;
    } else if (c == '\'' && i >= 2) {  // 'lambda'
      const std::size_t open = out.rfind('\'', i - 2);
      if (open == std::string_view::npos) break;
      i = open;
    } else {
      break;
    }
  }
  return std::string(out.substr(i));
}

// The name a parameter list follows: trailing_name(), looking through an
// operator's symbol ("std::_Map_base<...>::operator[]").
std::string function_name(std::string_view out) {
  const std::size_t at = out.rfind("operator");
  if (at != std::string_view::npos) {
    const std::string_view symbol = out.substr(at + 8);
    const bool only_symbol =
        !symbol.empty() &&
        std::none_of(symbol.begin(), symbol.end(), [](char c) {
          return is_ident_char(c) || c == ':' || c == '>';
        });
    if (only_symbol) return trailing_name(out.substr(0, at + 8));
  }
  return trailing_name(out);
}

std::string_view last_component(std::string_view q) {
  return components(q).back();
}

// "T const&" -> "const T&" when T is one plain type.
std::string tidy(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  std::size_t end = s.size();
  while (end > 0 && (s[end - 1] == '&' || s[end - 1] == '*')) --end;
  std::string_view body(s.data(), end);
  constexpr std::string_view kConst = " const";
  if (!body.ends_with(kConst)) return s;
  std::string_view base = body.substr(0, body.size() - kConst.size());
  if (base.empty() || base.ends_with("const") || base.ends_with("volatile"))
    return s;
  int depth = 0;
  for (char c : base) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth == 0 && (c == '*' || c == '&' || c == '(' || c == ')')) return s;
  }
  return "const " + std::string(base) + s.substr(end);
}

bool drops_as_default(std::string_view arg, std::string_view first) {
  auto is = [&](std::string_view name) {
    return arg.size() == name.size() + first.size() + 2 &&
           arg.starts_with(name) && arg[name.size()] == '<' &&
           arg.substr(name.size() + 1, first.size()) == first &&
           arg.back() == '>';
  };
  if (arg.starts_with("std::allocator<")) return true;
  for (std::string_view name :
       {"std::char_traits", "std::regex_traits", "std::default_delete",
        "std::less", "std::equal_to", "std::hash"}) {
    if (is(name)) return true;
  }
  return false;
}

// The std::basic_* templates of one character type that have a name of
// their own: std::basic_string<char> is std::string.
std::string character_alias(std::string_view name, std::string_view ch) {
  static constexpr std::array<std::string_view, 16> kAliased = {
      "basic_string",        "basic_string_view",  "basic_ostream",
      "basic_istream",       "basic_iostream",     "basic_ostringstream",
      "basic_istringstream", "basic_stringstream", "basic_ofstream",
      "basic_ifstream",      "basic_fstream",      "basic_streambuf",
      "basic_stringbuf",     "basic_filebuf",      "basic_ios",
      "basic_regex"};
  bool aliased = false;
  for (std::string_view a : kAliased) aliased = aliased || a == name;
  if (!aliased) return "";
  const std::string_view rest = name.substr(6);  // after "basic_"
  const bool text = rest == "string" || rest == "string_view";
  if (ch == "char") return std::string(rest);
  if (ch == "wchar_t") return "w" + std::string(rest);
  if (text && ch == "char8_t") return "u8" + std::string(rest);
  if (text && ch == "char16_t") return "u16" + std::string(rest);
  if (text && ch == "char32_t") return "u32" + std::string(rest);
  return "";
}

class Rewriter {
 public:
  Rewriter(std::string_view in, bool parameters)
      : in_(in), parameters_(parameters) {}

  std::string run() {
    std::string out = sequence("", 0, /*top=*/true);
    if (i_ != in_.size()) ok_ = false;
    return out;
  }
  // The input ended inside brackets (a name cut short by its producer): what
  // was read is rewritten and ends with "…".
  bool ok() const { return ok_; }

 private:
  // Rewrites the input up to one of `stops` outside brackets (not consumed)
  // or its end.
  std::string sequence(std::string_view stops, int depth, bool top) {
    std::string out;
    if (depth > kMaxDepth) {
      ok_ = false;
      return out;
    }
    std::size_t name_start = 0;  // after a return type, at the top level
    bool seen_paren = false;
    bool after_operator = false;
    while (i_ < in_.size() && ok_) {
      const char c = in_[i_];
      if (stops.find(c) != std::string_view::npos) break;
      if (c == '<') {
        ++i_;
        std::vector<std::string> args = list('>', depth + 1);
        if (cut_) {
          cut_off(out, '<',
                  is_internal(trailing_name(out)) ? std::vector<std::string>{}
                                                  : args);
        } else {
          template_arguments(out, std::move(args));
        }
        after_operator = false;
      } else if (c == '(') {
        const bool params =
            !out.empty() &&
            (is_ident_char(out.back()) || out.back() == '>' ||
             out.back() == '\'' || out.back() == ')' || out.back() == ']');
        const std::string name = params ? function_name(out) : std::string();
        ++i_;
        std::vector<std::string> items = list(')', depth + 1);
        const bool empty = items.size() == 1 && items[0].empty();
        const bool decltype_group = name == "decltype";
        if (cut_) {
          cut_off(out, '(', items);
        } else if (params && !empty && !decltype_group &&
                   (is_internal(name) || followed_by_scope() ||
                    (top && !parameters_))) {
          out += "(...)";
        } else {
          out += "(" + join(items) + ")";
        }
        // A decltype() return type is not the function's parameter list.
        if (top && !decltype_group) seen_paren = true;
        after_operator = false;
      } else if (c == '{') {
        ++i_;
        std::string inner = sequence("}", depth + 1, false);
        if (i_ >= in_.size()) {
          cut_off(out, '{', {inner});
          break;
        }
        ++i_;
        out += "{" + inner + "}";
      } else if (c == '\'') {
        const std::size_t close = in_.find('\'', i_ + 1);
        if (close == std::string_view::npos) {
          ok_ = false;
          break;
        }
        out.append(in_.substr(i_, close - i_ + 1));
        i_ = close + 1;
        after_operator = false;
      } else if (is_ident_char(c)) {
        std::size_t j = i_;
        while (j < in_.size() && is_ident_char(in_[j])) ++j;
        const std::string_view word = in_.substr(i_, j - i_);
        out.append(word);
        i_ = j;
        after_operator = word == "operator";
        if (after_operator) operator_symbol(out);
      } else if (c == ' ') {
        if (top && !seen_paren && !after_operator && !out.empty() &&
            (is_ident_char(out.back()) || out.back() == '>' ||
             out.back() == '&' || out.back() == '*' || out.back() == ')')) {
          name_start = out.size() + 1;
        }
        ++i_;
        if (!out.empty() && out.back() != ' ') out.push_back(' ');
      } else if (c == '>' || c == ')' || c == '}' || c == ',') {
        ok_ = false;  // a closing bracket without its opening one
        break;
      } else {
        out.push_back(c);
        ++i_;
        after_operator = false;
      }
    }
    // Drop the return type in front of a function name.
    if (top && seen_paren && name_start > 0 && name_start < out.size())
      out.erase(0, name_start);
    return out;
  }

  // The items of a bracketed list up to `closer` (consumed), each rewritten.
  std::vector<std::string> list(char closer, int depth) {
    std::vector<std::string> items;
    if (depth > kMaxDepth) {
      ok_ = false;
      return items;
    }
    const char stops[] = {',', closer, '\0'};
    for (;;) {
      items.push_back(tidy(sequence(stops, depth, false)));
      if (!ok_) return items;
      if (i_ >= in_.size()) {
        cut_ = true;
        return items;
      }
      if (in_[i_++] == closer) return items;
    }
  }

  void template_arguments(std::string& out, std::vector<std::string> args) {
    if (args.size() == 1 && args[0].empty()) {
      out += "<>";
      return;
    }
    const std::string q = trailing_name(out);
    if (is_internal(q)) {
      out += "<...>";
      return;
    }
    if (q.starts_with("std::")) {
      while (args.size() > 1 && drops_as_default(args.back(), args.front()))
        args.pop_back();
      const std::string_view name = last_component(q);
      if (args.size() == 1) {
        const std::string alias = character_alias(name, args[0]);
        if (!alias.empty()) {
          out.erase(out.size() - name.size());
          out += alias;
          return;
        }
      }
    }
    out += "<" + join(args) + ">";
  }

  // The symbol after "operator": "<<", "()", " new[]"; a conversion
  // operator's type is read as ordinary text.
  void operator_symbol(std::string& out) {
    static constexpr std::array<std::string_view, 45> kSymbols = {
        " new[]", " delete[]", " new",    " delete", "<=>", "<<=", ">>=",
        "->*",    "\"\"",      "()",      "[]",      "<<",  ">>",  "<=",
        ">=",     "->",        "==",      "!=",      "&&",  "||",  "++",
        "--",     "+=",        "-=",      "*=",      "/=",  "%=",  "&=",
        "|=",     "^=",        "<",       ">",       "+",   "-",   "*",
        "/",      "%",         "^",       "&",       "|",   "~",   "!",
        "=",      ",",         "co_await"};
    const std::string_view rest = in_.substr(i_);
    for (std::string_view symbol : kSymbols) {
      if (!rest.starts_with(symbol)) continue;
      if (is_ident_char(symbol.back()) && rest.size() > symbol.size() &&
          is_ident_char(rest[symbol.size()]))
        continue;  // "operator newline" is not operator new
      out.append(symbol);
      i_ += symbol.size();
      return;
    }
  }

  // True when the parameter list just read belongs to an enclosing function
  // ("f(int)::'lambda'()"): it is followed by "::", perhaps after
  // qualifiers.
  bool followed_by_scope() const {
    std::string_view rest = in_.substr(i_);
    for (bool more = true; more;) {
      more = false;
      for (std::string_view q : {" const", " volatile", " &&", " &"}) {
        if (rest.starts_with(q)) {
          rest.remove_prefix(q.size());
          more = true;
        }
      }
    }
    return rest.starts_with("::");
  }

  // What was read of a list the input ends in: "<args…" without the closing
  // bracket; "…" only once, at the innermost list.
  void cut_off(std::string& out, char open,
               const std::vector<std::string>& items) {
    cut_ = true;
    out.push_back(open);
    out += join(items);
    if (!out.ends_with("…")) out += "…";
  }

  std::string_view in_;
  const bool parameters_;  // keep the function's own parameter types
  std::size_t i_ = 0;
  bool ok_ = true;
  // The input ended inside brackets (a name cut short by its producer): what
  // was read is rewritten and ends with "…".
  bool cut_ = false;
};

}  // namespace

namespace {

std::string rewrite_symbol(std::string_view demangled, bool parameters) {
  // A name the symbolizer cut at its front (a very long template name)
  // starts inside an argument list: keep only its last component.
  // It closes more template argument lists than it opens.
  bool cut = false;
  int depth = 0;
  for (std::size_t i = 0; i < demangled.size() && !cut; ++i) {
    if (demangled.substr(i).starts_with("operator")) break;  // operator>, ->
    if (demangled[i] == '<') ++depth;
    if (demangled[i] == '>' && (i == 0 || demangled[i - 1] != '-')) {
      cut = --depth < 0;
    }
  }
  if (cut) {
    std::size_t last = 0;
    for (std::string_view sep : {">::", ")::"}) {
      const std::size_t at = demangled.rfind(sep);
      if (at != std::string_view::npos) last = std::max(last, at + 3);
    }
    if (last > 0) {
      return readable_library_spelling("…::" +
                                       std::string(demangled.substr(last)));
    }
  }
  // Too long or not understood: at least the library's spellings are short.
  if (demangled.size() > kMaxInput) return readable_library_spelling(demangled);
  const std::string clean = clean_namespaces(demangled);
  Rewriter rewriter(clean, parameters);
  std::string out = rewriter.run();
  // A name the rewriter does not follow, or one cut short at its front (the
  // symbolizer's text of a very long template name): whatever is left of
  // it, with the library's spellings short.
  return readable_library_spelling(rewriter.ok() ? out : clean);
}

}  // namespace

std::string readable_symbol(std::string_view demangled, bool parameters) {
  // Every report names the same few functions again (a run's reports share
  // their frames, and so do the schedules a shrinker tries), and rewriting a
  // library name of a thousand characters is dear under ThreadSanitizer: the
  // rewritten names are kept, per thread (no lock), up to a bound.
  constexpr std::size_t kKept = 4096;
  thread_local std::unordered_map<std::string, std::string> memo[2];
  auto& names = memo[parameters ? 1 : 0];
  std::string key(demangled);
  if (auto it = names.find(key); it != names.end()) return it->second;
  std::string readable = rewrite_symbol(demangled, parameters);
  if (names.size() >= kKept) names.clear();
  names.emplace(std::move(key), readable);
  return readable;
}

namespace {

// One frame line of a sanitizer report, rewritten; false when `line` is not
// one. TSan writes "    #3 name location (module+0x2a)", ASan "    #3 0x55d
// in name location"; the name may hold spaces, the location is a path with
// ":line[:col]" or "<null>", and a log cut short may end anywhere.
bool rewrite_frame_line(std::string_view line, std::string& out) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i >= line.size() || line[i] != '#') return false;
  std::size_t j = i + 1;
  while (j < line.size() && line[j] >= '0' && line[j] <= '9') ++j;
  if (j == i + 1 || j >= line.size() || line[j] != ' ') return false;
  std::size_t name_at = j + 1;
  if (line.substr(name_at).starts_with("0x")) {  // ASan: "0x55d in name"
    const std::size_t in = line.find(" in ", name_at);
    if (in == std::string_view::npos) return false;
    name_at = in + 4;
  }
  std::string_view rest = line.substr(name_at);
  if (const std::size_t build = rest.find(" (BuildId: ");
      build != std::string_view::npos) {
    rest = rest.substr(0, build);
  }
  // The module: " (racelab+0x1b115d)", or what is left of it.
  std::string_view module;
  if (const std::size_t open = rest.rfind(" (");
      open != std::string_view::npos) {
    const std::string_view tail = rest.substr(open + 2);
    const bool closed = tail.ends_with(")");
    if (tail.find(' ') == std::string_view::npos &&
        (!closed || tail.find("+0x") != std::string_view::npos)) {
      module = rest.substr(open);
      rest = rest.substr(0, open);
    }
  }
  std::string_view name = rest;
  std::string location;
  if (const std::size_t space = rest.rfind(' ');
      space != std::string_view::npos) {
    const std::string_view last = rest.substr(space + 1);
    const std::size_t colon = last.find(':');
    const bool place =
        last == "<null>" || last.find('/') != std::string_view::npos ||
        (colon != std::string_view::npos && colon + 1 < last.size() &&
         last[colon + 1] >= '0' && last[colon + 1] <= '9');
    if (place) {
      name = rest.substr(0, space);
      location = std::string(last);
    }
  }
  for (std::size_t up; (up = location.find("/../")) != std::string::npos;) {
    const std::size_t parent =
        up == 0 ? std::string::npos : location.rfind('/', up - 1);
    if (parent == std::string::npos) break;
    location.erase(parent, up + 3 - parent);
  }
  out.append(line.substr(0, name_at));
  out += readable_symbol(name, /*parameters=*/false);
  if (!location.empty()) out += " " + location;
  out.append(module);
  return true;
}

// "SUMMARY: ThreadSanitizer: SEGV location in name": the name rewritten.
bool rewrite_summary_line(std::string_view line, std::string& out) {
  if (!line.starts_with("SUMMARY: ")) return false;
  const std::size_t in = line.find(" in ");
  if (in == std::string_view::npos) return false;
  out.append(line.substr(0, in + 4));
  out += readable_symbol(line.substr(in + 4), /*parameters=*/false);
  return true;
}

}  // namespace

std::string readable_sanitizer_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    if (!rewrite_frame_line(line, out) && !rewrite_summary_line(line, out))
      out.append(readable_library_spelling(line));
    if (end == std::string_view::npos) break;
    out.push_back('\n');
    text.remove_prefix(end + 1);
  }
  return out;
}

std::string short_symbol(std::string_view demangled) {
  std::string name = readable_symbol(demangled);
  constexpr std::string_view kAnonymous = "(anonymous namespace)::";
  for (;;) {
    if (name.starts_with(kAnonymous)) {
      name.erase(0, kAnonymous.size());
      continue;
    }
    const size_t colons = name.find("::");
    if (colons == std::string::npos || colons == 0) break;
    const std::string_view head(name.data(), colons);
    const bool is_namespace =
        head.find_first_of("<>()[] ") == std::string_view::npos &&
        head.front() >= 'a' && head.front() <= 'z';
    if (!is_namespace) break;
    name.erase(0, colons + 2);
  }
  size_t paren = name.find('(');
  if (paren != std::string::npos && paren > 0) name.erase(paren);
  return name;
}

}  // namespace racelab
