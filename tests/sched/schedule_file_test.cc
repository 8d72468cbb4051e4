// Tests of the saved-schedule format: round trip, every kind of malformed
// input with its message, and a small mutation fuzz that must never crash.
#include "racelab/internal/sched/schedule_file.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "racelab/internal/sched/strategy.h"

namespace racelab::sched {
namespace {

ScheduleFile sample_file() {
  ScheduleFile file;
  file.subject = "state/unlock_during_iteration";
  file.scenario = "iterate_while_set";
  file.mode = "controlled";
  file.strategy = "pct";
  file.seed = 18446744073709551615ULL;
  file.extra = {{"depth", "3"}, {"note", "found by  the gate "}};
  file.program = {"set(k1,v1) set(k2,v2)", "", "all()"};
  for (int i = 0; i < 40; ++i) file.decisions.push_back(i % 3);
  return file;
}

// The sample as version 1 wrote it (no setup and finale lines); version 1
// files are still read.
const char kSampleText[] =
    "racelab-schedule 1\n"
    "subject state/unlock_during_iteration\n"
    "scenario iterate_while_set\n"
    "mode controlled\n"
    "strategy pct\n"
    "seed 18446744073709551615\n"
    "depth 3\n"
    "note found by  the gate \n"
    "program 3\n"
    "set(k1,v1) set(k2,v2)\n"
    "\n"
    "all()\n"
    "decisions 40\n"
    "0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1\n"
    "2 0 1 2 0 1 2 0\n"
    "end\n";

// The sample as this build writes it: version 2.
const char kSampleTextV2[] =
    "racelab-schedule 2\n"
    "subject state/unlock_during_iteration\n"
    "scenario iterate_while_set\n"
    "mode controlled\n"
    "strategy pct\n"
    "seed 18446744073709551615\n"
    "depth 3\n"
    "note found by  the gate \n"
    "setup\n"
    "program 3\n"
    "set(k1,v1) set(k2,v2)\n"
    "\n"
    "all()\n"
    "finale\n"
    "decisions 40\n"
    "0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1\n"
    "2 0 1 2 0 1 2 0\n"
    "end\n";

std::string error_of(const std::string& text);

TEST(ScheduleFileTest, WritesTheDocumentedFormat) {
  EXPECT_EQ(write_schedule(sample_file()), kSampleTextV2);
  EXPECT_EQ(parse_schedule(kSampleTextV2, "v2"), sample_file());
}

TEST(ScheduleFileTest, ReadsVersionOne) {
  EXPECT_EQ(parse_schedule(kSampleText, "v1"), sample_file());
}

// Setup and finale are fields of their own in version 2, written as lines
// around the threads; in version 1 they were header keys with "-" for none.
TEST(ScheduleFileTest, SetupAndFinaleRoundTripInVersionTwo) {
  ScheduleFile file = sample_file();
  file.setup = "set(k0,v0) set(k1,v1)";
  file.finale = "all()";
  const std::string text = write_schedule(file);
  EXPECT_NE(text.find("\nsetup set(k0,v0) set(k1,v1)\nprogram 3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nall()\nfinale all()\ndecisions 40\n"),
            std::string::npos)
      << text;
  ScheduleFileLines lines;
  EXPECT_EQ(parse_schedule(text, "sf", &lines), file);
  EXPECT_EQ(lines.setup, 9);
  EXPECT_EQ(lines.program, 11);
  EXPECT_EQ(lines.finale, 14);
  EXPECT_EQ(file.program_lines(),
            (std::vector<std::string>{"set(k0,v0) set(k1,v1)",
                                      "set(k1,v1) set(k2,v2)", "", "all()",
                                      "all()"}));
  ScheduleFile again = sample_file();
  again.set_program_lines(file.program_lines());
  EXPECT_EQ(again, file);
  EXPECT_THROW(again.set_program_lines({"setup", "finale"}),
               std::invalid_argument);
  // Nothing in them but the word itself: none. A "-" is an operation text
  // like any other in version 2.
  file.setup = "-";
  file.finale = "";
  EXPECT_EQ(parse_schedule(write_schedule(file), "dash"), file);
}

TEST(ScheduleFileTest, ReadsVersionOneSetupAndFinaleKeys) {
  const std::string v1 = std::string(kSampleText)
                             .replace(std::string(kSampleText).find("depth 3"),
                                      7, "setup set(k0,v0)\nfinale -\ndepth 3");
  ScheduleFileLines lines;
  const ScheduleFile file = parse_schedule(v1, "v1", &lines);
  EXPECT_EQ(file.setup, "set(k0,v0)");
  EXPECT_EQ(file.finale, "");
  EXPECT_EQ(file.extra, sample_file().extra);  // not kept as extra keys
  EXPECT_EQ(lines.setup, 7);
  EXPECT_EQ(lines.finale, 8);
  // Written back as version 2, it reads the same.
  EXPECT_EQ(parse_schedule(write_schedule(file), "v2"), file);
}

TEST(ScheduleFileTest, RejectsMisplacedSetupAndFinaleInVersionTwo) {
  const std::string v2 = kSampleTextV2;
  auto v2_with = [&](const std::string& from, const std::string& to) {
    std::string text = v2;
    return text.replace(text.find(from), from.size(), to);
  };
  EXPECT_EQ(error_of(v2_with("setup\n", "")),
            "bad.schedule:9: 'program' before the 'setup' line");
  EXPECT_EQ(error_of(v2_with("finale\n", "")),
            "bad.schedule:14: expected the 'finale' line after the 3 program "
            "lines, found 'decisions 40'");
  EXPECT_EQ(error_of(v2_with("setup\nprogram 3", "setup\nsetup\nprogram 3")),
            "bad.schedule:10: expected 'program <threads>' after the 'setup' "
            "line");
  EXPECT_EQ(error_of(v2_with("depth 3", "finale x")),
            "bad.schedule:7: 'finale' before the 'program' section");
  EXPECT_EQ(error_of(v2_with("setup\n", "setupx\n")),
            "bad.schedule:9: key 'setupx' has no value");
  EXPECT_EQ(error_of(v2_with("finale\n", "finale \xff\n")),
            "bad.schedule:14: the finale line is not valid UTF-8 (byte 0xff "
            "at column 8)");
  EXPECT_EQ(error_of(v2_with("finale\n", "finalex\n")),
            "bad.schedule:14: expected the 'finale' line after the 3 program "
            "lines, found 'finalex'");
  ScheduleFile file = sample_file();
  file.extra.push_back({"setup", "x"});
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.finale = "a\nb";
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
}

TEST(ScheduleFileTest, RoundTrips) {
  const ScheduleFile file = sample_file();
  EXPECT_EQ(parse_schedule(write_schedule(file), "x.schedule"), file);

  ScheduleFile minimal;
  minimal.subject = "s";
  minimal.scenario = "c";
  minimal.mode = "fuzz";
  minimal.strategy = "replay";
  minimal.program = {"only thread"};
  const std::string text = write_schedule(minimal);
  EXPECT_EQ(text,
            "racelab-schedule 2\nsubject s\nscenario c\nmode fuzz\n"
            "strategy replay\nseed 0\nsetup\nprogram 1\nonly thread\n"
            "finale\ndecisions 0\nend\n");
  EXPECT_EQ(parse_schedule(text, "m"), minimal);
}

TEST(ScheduleFileTest, AcceptsKeysInAnyOrderAndNoFinalNewline) {
  const std::string text =
      "racelab-schedule 1\nseed 7\nstrategy dfs\nmode controlled\n"
      "scenario two\nsubject checkpoint/mutex\nprogram 2\na\nb\n"
      "decisions 3\n0  1\t1\nend";
  const ScheduleFile file = parse_schedule(text, "t");
  EXPECT_EQ(file.seed, 7u);
  EXPECT_EQ(file.subject, "checkpoint/mutex");
  EXPECT_EQ(file.decisions, (std::vector<int>{0, 1, 1}));
}

std::string error_of(const std::string& text) {
  try {
    parse_schedule(text, "bad.schedule");
  } catch (const ScheduleFileError& e) {
    return e.what();
  }
  return "(no error)";
}

// kSampleText with `from` replaced by `to` (first occurrence).
std::string sample_with(const std::string& from, const std::string& to) {
  std::string text = kSampleText;
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(ScheduleFileTest, RejectsEmptyAndTruncatedFiles) {
  EXPECT_EQ(error_of(""),
            "bad.schedule:1: empty file (expected 'racelab-schedule 2')");
  EXPECT_EQ(error_of("racelab-schedule 1\n"),
            "bad.schedule:1: truncated: the file ends before the 'program' "
            "section");
  EXPECT_EQ(error_of("racelab-schedule 1\nsubject s\nscenario c\nmode m\n"
                     "strategy r\nseed 1\nprogram 3\na\n"),
            "bad.schedule:7: truncated: 'program 3' but the file ends after 1 "
            "program line");
  EXPECT_EQ(error_of("racelab-schedule 1\nsubject s\nscenario c\nmode m\n"
                     "strategy r\nseed 1\nprogram 1\na\n"),
            "bad.schedule:8: truncated: the file ends before 'decisions'");
  const std::string text = kSampleText;
  EXPECT_EQ(error_of(text.substr(0, text.find("end"))),
            "bad.schedule:15: truncated: missing 'end' (40 of 40 decisions "
            "read)");
  EXPECT_EQ(error_of(text.substr(0, text.find("2 0 1 2 0 1 2 0\n"))),
            "bad.schedule:14: truncated: missing 'end' (32 of 40 decisions "
            "read)");
}

TEST(ScheduleFileTest, RejectsAWrongMagicOrVersion) {
  EXPECT_EQ(error_of("racelab-schedule-v1\n"),
            "bad.schedule:1: not a racelab schedule: expected "
            "'racelab-schedule 2', found 'racelab-schedule-v1'");
  EXPECT_EQ(error_of("{\"json\": true}\n"),
            "bad.schedule:1: not a racelab schedule: expected "
            "'racelab-schedule 2', found '{\"json\": true}'");
  EXPECT_EQ(error_of(sample_with("racelab-schedule 1", "racelab-schedule 3")),
            "bad.schedule:1: unsupported version '3' (this build reads "
            "versions 1 and 2)");
  EXPECT_EQ(error_of("racelab-schedule\n"),
            "bad.schedule:1: unsupported version '' (this build reads "
            "versions 1 and 2)");
}

TEST(ScheduleFileTest, RejectsMissingAndDuplicateKeys) {
  EXPECT_EQ(error_of(sample_with("mode controlled\n", "")),
            "bad.schedule:8: missing required key 'mode' before 'program'");
  EXPECT_EQ(error_of(sample_with("depth 3\n", "depth 3\nseed 1\n")),
            "bad.schedule:8: duplicate key 'seed' (first at line 6)");
  EXPECT_EQ(error_of(sample_with("depth 3\n", "depth 3\ndepth 4\n")),
            "bad.schedule:8: duplicate key 'depth' (first at line 7)");
  EXPECT_EQ(error_of(sample_with("depth 3", "depth")),
            "bad.schedule:7: key 'depth' has no value");
  EXPECT_EQ(error_of(sample_with("depth 3", "Depth 3")),
            "bad.schedule:7: bad header line 'Depth 3' (expected 'key value', "
            "key in [a-z][a-z0-9_.-]*)");
  EXPECT_EQ(error_of(sample_with("depth 3\n", "\n")),
            "bad.schedule:7: empty line in the header");
  EXPECT_EQ(error_of(sample_with("seed 18446744073709551615",
                                 "seed 18446744073709551616")),
            "bad.schedule:6: seed '18446744073709551616' is not an unsigned "
            "64-bit decimal number");
  EXPECT_EQ(error_of(sample_with("seed 18446744073709551615", "seed -1")),
            "bad.schedule:6: seed '-1' is not an unsigned 64-bit decimal "
            "number");
  EXPECT_EQ(error_of(sample_with("depth 3", "decisions 3")),
            "bad.schedule:7: 'decisions' before the 'program' section");
}

TEST(ScheduleFileTest, RejectsABadProgramCount) {
  EXPECT_EQ(error_of(sample_with("program 3", "program 0")),
            "bad.schedule:9: 'program' needs a thread count from 1 to 1048576, "
            "found '0'");
  EXPECT_EQ(error_of(sample_with("program 3", "program x")),
            "bad.schedule:9: 'program' needs a thread count from 1 to 1048576, "
            "found 'x'");
  EXPECT_EQ(error_of(sample_with("program 3", "program 2")),
            "bad.schedule:12: expected 'decisions <count>' after the 2 "
            "program lines, found 'all()'");
}

TEST(ScheduleFileTest, RejectsDecisionCountMismatches) {
  EXPECT_EQ(error_of(sample_with("decisions 40", "decisions 41")),
            "bad.schedule:16: decision count mismatch: 'decisions 41' at line "
            "13 but 40 found before 'end'");
  EXPECT_EQ(error_of(sample_with("decisions 40", "decisions 39")),
            "bad.schedule:15: decision count mismatch: more than the 39 "
            "declared at line 13");
  EXPECT_EQ(error_of(sample_with("decisions 40", "decisions")),
            "bad.schedule:13: 'decisions' needs a count, found ''");
  EXPECT_EQ(error_of(sample_with("decisions 40", "decisions 99999999999")),
            "bad.schedule:13: 'decisions' needs a count, found '99999999999'");
}

TEST(ScheduleFileTest, RejectsBadDecisions) {
  EXPECT_EQ(error_of(sample_with("0 1 2 0", "0 x 2 0")),
            "bad.schedule:14: decision 'x' is not a number");
  EXPECT_EQ(error_of(sample_with("0 1 2 0", "0 -1 2 0")),
            "bad.schedule:14: negative decision '-1'");
  EXPECT_EQ(error_of(sample_with("0 1 2 0", "0 1.5 2 0")),
            "bad.schedule:14: decision '1.5' is not a number");
  EXPECT_EQ(error_of(sample_with("0 1 2 0", "0 3 2 0")),
            "bad.schedule:14: decision 3 names a thread that does not exist "
            "(the program has 3 threads)");
  EXPECT_EQ(error_of(sample_with("0 1 2 0", "0 99999999999999999999999 2 0")),
            "bad.schedule:14: decision '99999999999999999999999' is not a "
            "number");
  EXPECT_EQ(error_of(sample_with("2 0 1 2 0 1 2 0\n", "2 0 1 2 0 1 2 0\n\n")),
            "bad.schedule:16: empty line among the decisions");
}

TEST(ScheduleFileTest, RejectsTrailingGarbageAndCarriageReturns) {
  EXPECT_EQ(error_of(std::string(kSampleText) + "\n"),
            "bad.schedule:17: trailing garbage after 'end'");
  EXPECT_EQ(error_of(std::string(kSampleText) + "end\n"),
            "bad.schedule:17: trailing garbage after 'end'");
  EXPECT_EQ(error_of(sample_with("set(k1,v1) set", "set(k1,v1)\rset")),
            "bad.schedule:10: carriage return in program line 0");
  EXPECT_EQ(error_of(sample_with("mode controlled\n", "mode controlled\r\n")),
            "bad.schedule:4: carriage return at the end of the line (CRLF "
            "line endings are not supported)");
}

// Program lines and values reach the run as JSON strings: they must be
// UTF-8, and a byte that is not is named with its line and column.
TEST(ScheduleFileTest, RejectsTextThatIsNotUtf8) {
  EXPECT_EQ(error_of(sample_with("set(k2,v2)", "set(k2,v\xff)")),
            "bad.schedule:10: program line 0 is not valid UTF-8 (byte 0xff at "
            "column 20)");
  EXPECT_EQ(error_of(sample_with("all()", "all(\xc0\xaf)")),  // overlong '/'
            "bad.schedule:12: program line 2 is not valid UTF-8 (byte 0xc0 at "
            "column 5)");
  EXPECT_EQ(error_of(sample_with("all()", "\xed\xa0\x80")),  // a surrogate
            "bad.schedule:12: program line 2 is not valid UTF-8 (byte 0xed at "
            "column 1)");
  EXPECT_EQ(error_of(sample_with("all()", "\xf4\x90\x80\x80")),  // > U+10FFFF
            "bad.schedule:12: program line 2 is not valid UTF-8 (byte 0xf4 at "
            "column 1)");
  EXPECT_EQ(error_of(sample_with("all()", "all()\xe2\x82")),  // cut short
            "bad.schedule:12: program line 2 is not valid UTF-8 (byte 0xe2 at "
            "column 6)");
  EXPECT_EQ(error_of(sample_with("\n\nall()", "\n\x80\nall()")),
            "bad.schedule:11: program line 1 is not valid UTF-8 (byte 0x80 at "
            "column 1)");
  EXPECT_EQ(error_of(sample_with("depth 3", "depth 3\xfe")),
            "bad.schedule:7: value of 'depth' is not valid UTF-8 (byte 0xfe at "
            "column 8)");
  // The excerpt of a bad header line stays ASCII (it may end up in JSON).
  EXPECT_EQ(error_of(sample_with("depth 3", "D\xffpth 3")),
            "bad.schedule:7: bad header line 'D?pth 3' (expected 'key value', "
            "key in [a-z][a-z0-9_.-]*)");
}

TEST(ScheduleFileTest, AcceptsUtf8Text) {
  ScheduleFile file = sample_file();
  file.program[1] = "set(caf\xc3\xa9,\xe2\x82\xac) set(\xf0\x9f\x98\x80,x)";
  file.extra.push_back({"note2",
                        "\xc3\xbc"
                        "ber"});
  EXPECT_EQ(parse_schedule(write_schedule(file), "u"), file);
}

// A schedule is a few KiB: past 4 MiB the file is refused as a whole, before
// anything in it is looked at.
TEST(ScheduleFileTest, RejectsFilesLargerThanTheLimit) {
  EXPECT_EQ(ScheduleFile::kMaxBytes, 4u << 20);
  std::string huge(ScheduleFile::kMaxBytes + 1, 'x');
  EXPECT_EQ(error_of(huge),
            "bad.schedule: schedule file larger than the 4 MiB limit");
  // At the limit exactly, a valid file parses: pad one program line.
  ScheduleFile file = sample_file();
  const std::size_t size = write_schedule(file).size();
  file.program[1].assign(ScheduleFile::kMaxBytes - size, 'p');
  const std::string text = write_schedule(file);
  ASSERT_EQ(text.size(), ScheduleFile::kMaxBytes);
  EXPECT_EQ(parse_schedule(text, "limit"), file);
  file.program[1] += 'p';
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
}

// The parser tells where each key and the program are, for messages about
// the content (an operation the family does not know).
TEST(ScheduleFileTest, ReportsWhereKeysAndProgramLinesAre) {
  ScheduleFileLines lines;
  parse_schedule(kSampleText, "x", &lines);
  EXPECT_EQ(lines.of_key("subject"), 2);
  EXPECT_EQ(lines.of_key("seed"), 6);
  EXPECT_EQ(lines.of_key("note"), 8);
  EXPECT_EQ(lines.of_key("absent"), 0);
  EXPECT_EQ(lines.program, 10);
}

TEST(ScheduleFileTest, WriterRefusesWhatItCannotWriteFaithfully) {
  ScheduleFile file = sample_file();
  file.subject = "";
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.program[0] = "two\nlines";
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.extra.push_back({"seed", "1"});
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.extra.push_back({"end", "1"});
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.decisions.push_back(3);
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.program.clear();
  file.decisions.clear();
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.program[0] = "set(k\xff,v)";
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
  file = sample_file();
  file.extra.push_back({"note2", "\xc0\xaf"});
  EXPECT_THROW(write_schedule(file), std::invalid_argument);
}

// Mutations of a valid file (byte flips, insertions, deletions, truncation)
// either parse or throw ScheduleFileError; nothing else may happen.
TEST(ScheduleFileTest, MutatedInputsNeverCrash) {
  const std::string valid = kSampleText;
  SeededRandom random(2024);
  using namespace std::string_literals;
  const std::string alphabet = "0123456789 -\n\r\tendprogramdecisions\0\xff"s;
  int parsed = 0;
  for (int i = 0; i < 5000; ++i) {
    std::string text = valid;
    const int edits = 1 + random.below(4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const auto at =
          static_cast<std::size_t>(random.below(static_cast<int>(text.size())));
      const char c = alphabet[static_cast<std::size_t>(
          random.below(static_cast<int>(alphabet.size())))];
      switch (random.below(4)) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(at, 1, c);
          break;
        case 2:
          text.erase(at, 1);
          break;
        default:
          text.resize(at);
          break;
      }
    }
    try {
      const ScheduleFile file = parse_schedule(text, "fuzz");
      ++parsed;
      for (int decision : file.decisions) {
        EXPECT_GE(decision, 0);
        EXPECT_LT(decision, static_cast<int>(file.program.size()));
      }
    } catch (const ScheduleFileError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("fuzz:", 0), 0u) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
  EXPECT_GT(parsed, 0);  // some mutations keep the file valid
}

}  // namespace
}  // namespace racelab::sched
