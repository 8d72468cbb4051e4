// readable_symbol(): a table of demangled names (as llvm-symbolizer prints
// them for racelab's own frames) and what the reports show; and
// frame_origin_of(): whose code a file holds.
#include "racelab/symbol_names.h"

#include <gtest/gtest.h>

#include <string>

#include "racelab/finding.h"

namespace racelab {
namespace {

// The libstdc++ spelling of std::string, and of an unordered_map from it.
const std::string kStr =
    "std::__cxx11::basic_string<char, std::char_traits<char>, "
    "std::allocator<char> >";
const std::string kSession =
    "racelab::checkpoint::(anonymous namespace)::Unsynchronized::Session";
const std::string kPair = "std::pair<" + kStr + " const, " + kSession + ">";

struct Row {
  std::string in;
  std::string out;
};

void PrintTo(const Row& row, std::ostream* os) { *os << row.in; }

class ReadableSymbol : public ::testing::TestWithParam<Row> {};

TEST_P(ReadableSymbol, Simplifies) {
  EXPECT_EQ(readable_symbol(GetParam().in), GetParam().out)
      << "input: " << GetParam().in;
}

INSTANTIATE_TEST_SUITE_P(
    Table, ReadableSymbol,
    ::testing::Values(
        // std::string and its kin.
        Row{kStr, "std::string"},
        Row{"std::__cxx11::basic_string<wchar_t, std::char_traits<wchar_t>, "
            "std::allocator<wchar_t> >",
            "std::wstring"},
        Row{"std::basic_string_view<char, std::char_traits<char> >",
            "std::string_view"},
        Row{"std::__cxx11::basic_ostringstream<char, std::char_traits<char>, "
            "std::allocator<char> >::str() const",
            "std::ostringstream::str() const"},
        Row{"std::basic_ostream<char, std::char_traits<char> >& "
            "std::operator<< <std::char_traits<char> >(std::basic_ostream<"
            "char, std::char_traits<char> >&, char const*)",
            "std::operator<< <std::char_traits<char>>(std::ostream&, const "
            "char*)"},
        // A user's method taking strings.
        Row{"racelab::checkpoint::(anonymous namespace)::Unsynchronized::"
            "commit(" +
                kStr + " const&, " + kStr + ")",
            "racelab::checkpoint::Unsynchronized::commit(const std::string&, "
            "std::string)"},
        // Default arguments of containers.
        Row{"std::unordered_map<" + kStr + ", " + kSession + ", std::hash<" +
                kStr + " >, std::equal_to<" + kStr + " >, std::allocator<" +
                kPair + " > >::operator[](" + kStr + " const&)",
            "std::unordered_map<std::string, racelab::checkpoint::"
            "Unsynchronized::Session>::operator[](const std::string&)"},
        Row{"std::vector<int, std::allocator<int> >::push_back(int const&)",
            "std::vector<int>::push_back(const int&)"},
        Row{"std::map<int, " + kStr +
                ", std::less<int>, std::allocator<std::"
                "pair<int const, " +
                kStr + " > > >::at(int const&)",
            "std::map<int, std::string>::at(const int&)"},
        Row{"std::set<long, std::less<long>, std::allocator<long> >::size() "
            "const",
            "std::set<long>::size() const"},
        Row{"std::unique_ptr<racelab::Store, std::default_delete<racelab::"
            "Store> >::reset(racelab::Store*)",
            "std::unique_ptr<racelab::Store>::reset(racelab::Store*)"},
        Row{"std::vector<std::vector<int, std::allocator<int> >, "
            "std::allocator<std::vector<int, std::allocator<int> > > >::size() "
            "const",
            "std::vector<std::vector<int>>::size() const"},
        // A comparator that is not the default stays.
        Row{"std::map<int, int, std::greater<int>, std::allocator<std::pair<"
            "int const, int> > >::clear()",
            "std::map<int, int, std::greater<int>>::clear()"},
        Row{"std::shared_ptr<racelab::state::Snapshot const>::get() const",
            "std::shared_ptr<const racelab::state::Snapshot>::get() const"},
        Row{kPair,
            "std::pair<const std::string, racelab::checkpoint::"
            "Unsynchronized::Session>"},
        // Library internals: template arguments and parameters elided.
        Row{"std::_Hashtable<" + kStr + ", " + kPair + ", std::allocator<" +
                kPair + " >, std::__detail::_Select1st, std::equal_to<" + kStr +
                " >, std::hash<" + kStr +
                " >, std::__detail::_Mod_range_hashing, "
                "std::__detail::_Default_ranged_hash, "
                "std::__detail::_Prime_rehash_policy, "
                "std::__detail::_Hashtable_traits<true, false, true> "
                ">::_M_bucket_index(unsigned long) const",
            "std::_Hashtable<...>::_M_bucket_index(...) const"},
        Row{"std::__detail::_Map_base<" + kStr + ", " + kPair +
                ", std::__detail::_Select1st, true>::operator[](" + kStr +
                " const&)",
            "std::__detail::_Map_base<...>::operator[](...)"},
        Row{"std::thread::_State_impl<std::thread::_Invoker<std::tuple<"
            "racelab::Foo> > >::_M_run()",
            "std::thread::_State_impl<...>::_M_run()"},
        Row{"void std::__invoke_impl<void, racelab::Foo>(std::__invoke_other, "
            "racelab::Foo&&)",
            "std::__invoke_impl<...>(...)"},
        Row{"__gnu_cxx::__normal_iterator<int*, std::vector<int, "
            "std::allocator<int> > >::operator++()",
            "__gnu_cxx::__normal_iterator<...>::operator++()"},
        // Lambdas in a template function: the return type and the
        // enclosing function's parameters go; the call's own stay.
        Row{"racelab::RunObservation racelab::run_stress<racelab::(anonymous "
            "namespace)::DeclaredFamily>(racelab::Scenario<racelab::(anonymous "
            "namespace)::DeclaredFamily> const&, "
            "std::unique_ptr<racelab::Store, "
            "std::default_delete<racelab::Store> > (*)(), racelab::RunRequest "
            "const&)::'lambda'(racelab::Op const&)::operator()(racelab::Op "
            "const&) const",
            "racelab::run_stress<racelab::DeclaredFamily>(...)::"
            "'lambda'(...)::operator()(const racelab::Op&) const"},
        Row{"racelab::foo()::{lambda(int)#1}::operator()(int) const",
            "racelab::foo()::{lambda(int)#1}::operator()(int) const"},
        Row{"int racelab::(anonymous namespace)::helper<int>(int)",
            "racelab::helper<int>(int)"},
        Row{"racelab::Foo::operator " + kStr + "() const",
            "racelab::Foo::operator std::string() const"},
        Row{"racelab::Foo::operator new(unsigned long)",
            "racelab::Foo::operator new(unsigned long)"},
        Row{"racelab::Foo::operator->() const",
            "racelab::Foo::operator->() const"},
        Row{"racelab::names[abi:cxx11]()", "racelab::names()"},
        Row{"std::function<void (int)>::operator()(int) const",
            "std::function<void (int)>::operator()(int) const"},
        // Plain names, runtime frames and odd input come back as they are.
        Row{"std::mutex::lock()", "std::mutex::lock()"},
        Row{"__tsan_thread_start_func", "__tsan_thread_start_func"},
        Row{"vtable for racelab::Foo", "vtable for racelab::Foo"}, Row{"", ""},
        Row{"decltype(new ((void*)(0))int(std::declval<int const&>())) "
            "std::construct_at<int, int const&>(int*, int const&)",
            "std::construct_at<int, const int&>(int*, const int&)"},
        // A name cut short: what was read, then "…".
        Row{"std::_Hashtable<std::__cxx11::basic_string<c",
            "std::_Hashtable<…"},
        Row{"racelab::GoMap<" + kStr + ", int>::operator[](" +
                kStr.substr(0, 30),
            "racelab::GoMap<std::string, "
            "int>::operator[](std::basic_string<cha…"},
        Row{"foo<bar(", "foo<bar(…"}, Row{"a>b", "a>b"},
        Row{"std::__cxx11::list<int>)", "std::list<int>)"}));

TEST(ReadableSymbolWithoutParameters, ElidesOnlyTheFunctionsOwnList) {
  EXPECT_EQ(readable_symbol("racelab::(anonymous namespace)::DeclaredFamily::"
                            "execute(racelab::(anonymous namespace)::"
                            "DeclaredStore&, racelab::DeclaredCall const&, "
                            "racelab::OpContext&)",
                            false),
            "racelab::DeclaredFamily::execute(...)");
  EXPECT_EQ(readable_symbol("std::vector<int, std::allocator<int> >::size() "
                            "const",
                            false),
            "std::vector<int>::size() const");
  EXPECT_EQ(readable_symbol("racelab::f(int)::'lambda'(char)::operator()(char) "
                            "const",
                            false),
            "racelab::f(...)::'lambda'(...)::operator()(...) const");
}

TEST(ReadableSymbolLimits, DeepNestingAndLongInputDoNotBreakIt) {
  std::string deep;
  for (int i = 0; i < 500; ++i) deep += "a<";
  EXPECT_EQ(readable_symbol(deep), deep);
  const std::string huge(100 * 1024, 'x');
  EXPECT_EQ(readable_symbol(huge), huge);
}

// A frame of a declared spec's operation, as TSan symbolized it in the
// catalog's gate: a std::function invoker of a lambda inside a template
// whose arguments spell std::string out. Where the rewriter cannot follow a
// name, the library's spellings are still shortened.
TEST(ReadableSymbolLimits, AnUnreadableNameStillShortensTheLibrarysSpelling) {
  const std::string spec_lambda =
      "std::enable_if<is_invocable_r_v<racelab::checkpoint::checkpoint_spec()::"
      "$_3, racelab::Spec<racelab::checkpoint::CheckpointStore, "
      "racelab::checkpoint::SessionModel>& "
      "racelab::Spec<racelab::checkpoint::CheckpointStore, "
      "racelab::checkpoint::SessionModel>::op<racelab::checkpoint::checkpoint_"
      "spec()::$_3, racelab::ValueGenerator<std::__cxx11::basic_string<char, "
      "std::char_traits<char>, std::allocator<cha"
      "r> > >, racelab::checkpoint::IndexReads, "
      "racelab::JudgedBy<racelab::checkpoint::checkpoint_spec()::$_4> "
      ">(std::__cxx11::basic_string<char, std::char_traits<char>, "
      "std::allocator<char> >, racelab::checkpoint::checkpoint_spec()::$_3, "
      "racelab::ValueGenerator<std::__cxx11::basic_string<char, "
      "std::char_traits<char>, std::allocator<char> > >, "
      "racelab::checkpoint::IndexReads, racelab::JudgedBy<racelab::c"
      "heckpoint::checkpoint_spec()::$_4>)::'lambda'(void*, void const*, "
      "racelab::CallContext&)&, void*, void const*, racelab::CallContext&>, "
      "racelab::checkpoint::checkpoint_spec()::$_3>::type "
      "std::__invoke_r<std::shared_ptr<void const>, "
      "racelab::Spec<racelab::checkpoint::CheckpointStore, "
      "racelab::checkpoint::SessionModel>& "
      "racelab::Spec<racelab::checkpoint::CheckpointStore, "
      "racelab::checkpoint::SessionM"
      "odel>::op<racelab::checkpoint::checkpoint_spec()::$_3, "
      "racelab::ValueGenerator<std::__cxx11::basic_string<char, "
      "std::char_traits<char>, std::allocator<char> > >, "
      "racelab::checkpoint::IndexReads, "
      "racelab::JudgedBy<racelab::checkpoint::checkpoint_spec()::$_4> "
      ">(std::__cxx11::basic_string<char, std::char_traits<char>, "
      "std::allocator<char> >, racelab::checkpoint::checkpoint_spec()::$_3, "
      "racelab::Value"
      "Generator<std::__cxx11::basic_string<char, std::char_traits<char>, "
      "std::allocator<char> > >, racelab::checkpoint::IndexReads, "
      "racelab::JudgedBy<racelab::checkpoint::checkpoint_spec()::$_4>)::'"
      "lambda'(void*, void const*, racelab::CallContext&)&, void*, void "
      "const*, "
      "racelab::CallContext&>(racelab::Spec<racelab::checkpoint::"
      "CheckpointStore, racelab::checkpoint::SessionModel>& "
      "racelab::Spec<racelab::c"
      "heckpoint::CheckpointStore, "
      "racelab::checkpoint::SessionModel>::op<racelab::checkpoint::checkpoint_"
      "spec()::$_3, racelab::ValueGenerator<std::__cxx11::basic_string<char, "
      "std::char_traits<char>, std::allocator<char> > >, "
      "racelab::checkpoint::IndexReads, "
      "racelab::JudgedBy<racelab::checkpoint::checkpoint_spec()::$_4> "
      ">(std::__cxx11::basic_string<char, std::char_traits<char>, "
      "std::allocator<char> >, ra"
      "celab::checkpoint::checkpoint_spec()::$_3, "
      "racelab::ValueGenerator<std::__cxx11::basic_string<char, "
      "std::char_traits<char>, std::allocator<char> > >, "
      "racelab::checkpoint::IndexReads, "
      "racelab::JudgedBy<racelab::checkpoint::checkpoint_spec()::$_4>)::'"
      "lambda'(void*, void const*, racelab::CallContext&)&, void*&&, void "
      "const*&&, racelab::CallContext&)";
  for (bool parameters : {true, false}) {
    const std::string out = racelab::readable_symbol(spec_lambda, parameters);
    EXPECT_EQ(out.find("basic_string<char"), std::string::npos) << out;
    EXPECT_EQ(out.find("std::__cxx11::"), std::string::npos) << out;
    EXPECT_TRUE(out.starts_with("std::")) << out;
  }
  // The same kind of name as the symbolizer sometimes hands it over, cut
  // short at its front.
  const std::string cut =
      ":char_traits<char>, std::allocator<char> > >, "
      "racelab::ValueGenerator<std::__cxx11::basic_string<char, "
      "std::char_traits<char>, std::allocator<char> > >)::'lambda'(void*, void "
      "const*, racelab::CallCont"
      "ext&)>::_M_invoke(std::_Any_data const&, void*&&, void const*&&, "
      "racelab::CallContext&)";
  for (bool parameters : {true, false}) {
    const std::string out = racelab::readable_symbol(cut, parameters);
    EXPECT_EQ(racelab::readable_symbol(" std::char_traits<char>, "
                                       "std::allocator<char> > >, int>::f()",
                                       parameters),
              "…::f()");
    EXPECT_EQ(out.find("std::allocator<char"), std::string::npos) << out;
    EXPECT_EQ(out.find("basic_string<char"), std::string::npos) << out;
    EXPECT_EQ(out.find("std::__cxx11::"), std::string::npos) << out;
  }
}

TEST(ReadableSanitizerText, RewritesFrameLinesOnly) {
  const std::string report =
      "WARNING: ThreadSanitizer: data race (pid=7)\n"
      "  Write of size 8 at 0x7b04 by thread T2:\n"
      "    #0 racelab::checkpoint::(anonymous namespace)::Unsynchronized::"
      "commit(" +
      kStr + " const&, " + kStr +
      ") /usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/"
      "bits/x.h:23:5 (racelab+0x1b115d) (BuildId: 4e68962582)\n"
      "    #1 memcpy <null> (racelab+0x7b1d2)\n"
      "    #2 0x55d in std::vector<int, std::allocator<int> >::push_back(int "
      "const&) subjects/a.cc:9:3\n"
      "    #3 std::allocator_traits<std::allocator<std::__detail::_Hash_node<"
      "std::pair<" +
      kStr + " const, int>, true> > >::allocate(unsigned long) /usr/x.h:4 (rac";
  EXPECT_EQ(
      readable_sanitizer_text(report),
      "WARNING: ThreadSanitizer: data race (pid=7)\n"
      "  Write of size 8 at 0x7b04 by thread T2:\n"
      "    #0 racelab::checkpoint::Unsynchronized::commit(...) "
      "/usr/include/c++/12/bits/x.h:23:5 (racelab+0x1b115d)\n"
      "    #1 memcpy <null> (racelab+0x7b1d2)\n"
      "    #2 0x55d in std::vector<int>::push_back(...) subjects/a.cc:9:3\n"
      "    #3 std::allocator_traits<std::allocator<std::__detail::_Hash_"
      "node<...>>>::allocate(...) /usr/x.h:4 (rac");
  // A log cut inside a name.
  EXPECT_EQ(
      readable_sanitizer_text("    #4 std::map<int, " + kStr.substr(0, 20)),
      "    #4 std::map<int, std::basic_…");
  EXPECT_EQ(readable_sanitizer_text("SUMMARY: ThreadSanitizer: SEGV a.h:3 in "
                                    "std::map<int, int, std::less<int>, "
                                    "std::allocator<int> >::at(int const&)"),
            "SUMMARY: ThreadSanitizer: SEGV a.h:3 in std::map<int, "
            "int>::at(...)");
  EXPECT_EQ(readable_sanitizer_text("#x not a frame\n\nend\n"),
            "#x not a frame\n\nend\n");
  // Free text keeps its words but not the library's long spellings.
  EXPECT_EQ(readable_sanitizer_text(
                "CHECK failed in std::__cxx11::basic_string<char, "
                "std::char_traits<char>, std::allocator<char> >::_M_create\n"),
            "CHECK failed in std::string::_M_create\n");
}

TEST(FrameOrigin, JudgedFromTheFile) {
  EXPECT_EQ(frame_origin_of("subjects/checkpoint/unsynchronized.cc"),
            FrameOrigin::kUser);
  EXPECT_EQ(frame_origin_of("examples/kv_store/store.cc"), FrameOrigin::kUser);
  EXPECT_EQ(frame_origin_of("/home/me/project/src/store.cc"),
            FrameOrigin::kUser);
  EXPECT_EQ(frame_origin_of("harness/include/racelab/go_map.h"),
            FrameOrigin::kRacelab);
  EXPECT_EQ(frame_origin_of("scenarios/checkpoint_spec.cc"),
            FrameOrigin::kRacelab);
  EXPECT_EQ(frame_origin_of("/usr/local/include/racelab/kit.h"),
            FrameOrigin::kRacelab);
  EXPECT_EQ(frame_origin_of("/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../"
                            "../include/c++/12/bits/hashtable.h"),
            FrameOrigin::kLibrary);
  EXPECT_EQ(frame_origin_of("/build/llvm-toolchain-14-X/compiler-rt/lib/tsan/"
                            "rtl/tsan_interceptors_posix.cpp"),
            FrameOrigin::kLibrary);
  EXPECT_EQ(frame_origin_of("./nptl/pthread_create.c"), FrameOrigin::kLibrary);
  EXPECT_EQ(frame_origin_of(""), FrameOrigin::kLibrary);
}

TEST(FrameOrigin, Names) {
  for (FrameOrigin o :
       {FrameOrigin::kUser, FrameOrigin::kLibrary, FrameOrigin::kRacelab}) {
    EXPECT_EQ(parse_frame_origin(to_string(o)), o);
  }
  EXPECT_EQ(parse_frame_origin("kernel"), std::nullopt);
}

}  // namespace
}  // namespace racelab
