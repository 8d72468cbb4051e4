// The shared helpers of the report writers: XML 1.0 clean-up of text from a
// run, subject source files, verdicts.
#include <gtest/gtest.h>

#include <string>

#include "racelab/report.h"

namespace racelab {
namespace {

TEST(XmlSafe, KeepsTextTabsAndLineBreaks) {
  EXPECT_EQ(report::xml_safe("a\tb\nc\rd <&> \"' é ✓ 😀"),
            "a\tb\nc\rd <&> \"' é ✓ 😀");
}

TEST(XmlSafe, ReplacesControlCharactersByControlPictures) {
  EXPECT_EQ(report::xml_safe(std::string("\x00\x01\x08\x0b\x0c\x1f\x7f", 7)),
            "\u2400\u2401\u2408\u240b\u240c\u241f\u2421");
}

TEST(XmlSafe, ReplacesMalformedUtf8AndNonCharacters) {
  EXPECT_EQ(report::xml_safe("a\xff"
                             "b"),
            "a\uFFFDb");
  EXPECT_EQ(report::xml_safe("\xc3"), "\uFFFD");  // truncated sequence
  EXPECT_EQ(report::xml_safe("\xc0\xaf"), "\uFFFD\uFFFD");  // overlong '/'
  EXPECT_EQ(report::xml_safe("\xed\xa0\x80"),
            "\uFFFD\uFFFD\uFFFD");                        // a surrogate
  EXPECT_EQ(report::xml_safe("\xef\xbf\xbe"), "\uFFFD");  // U+FFFE
}

TEST(Verdict, FromMismatchAndKinds) {
  CaseResult c;
  EXPECT_EQ(report::verdict_of(c), report::Verdict::kCleanOk);
  c.kinds = {FindingKind::kDataRace};
  EXPECT_EQ(report::verdict_of(c), report::Verdict::kCaughtOk);
  c.mismatch = "no";
  EXPECT_EQ(report::verdict_of(c), report::Verdict::kMismatch);
  EXPECT_STREQ(report::to_string(report::Verdict::kCaughtOk), "caught-ok");
}

TEST(RuleId, IsPrefixedKind) {
  EXPECT_EQ(report::rule_id(FindingKind::kUseAfterFree),
            "racelab/use_after_free");
  for (FindingKind k : all_finding_kinds())
    EXPECT_NE(report::describe_kind(k)[0], '\0');
}

}  // namespace
}  // namespace racelab
