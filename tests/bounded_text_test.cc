// BoundedText keeps the first and last bytes of a program's output, with a
// count of what it dropped between them, whatever the sizes of the pieces
// the output arrives in.
#include <gtest/gtest.h>

#include <string>

#include "program_process.h"

namespace racelab {
namespace {

// `text` appended to `kept` in pieces of `piece` bytes.
void append_in_pieces(BoundedText& kept, const std::string& text,
                      std::size_t piece) {
  for (std::size_t at = 0; at < text.size(); at += piece) {
    const std::string part = text.substr(at, piece);
    kept.append(part.data(), part.size());
  }
}

std::string numbered(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += std::to_string(i % 10);
  return text;
}

TEST(BoundedText, KeepsEverythingThatFits) {
  BoundedText kept(4, 8);
  append_in_pieces(kept, "0123456789", 3);
  EXPECT_EQ(kept.text(), "0123456789");
  EXPECT_EQ(kept.dropped(), 0u);
  EXPECT_EQ(kept.total(), 10u);
}

TEST(BoundedText, KeepsTheHeadAndTheLastBytesInEveryPieceSize) {
  const std::string text = numbered(1000);
  for (std::size_t piece : {1u, 3u, 7u, 8u, 9u, 64u, 1000u}) {
    BoundedText kept(5, 8);
    append_in_pieces(kept, text, piece);
    EXPECT_EQ(kept.total(), 1000u) << piece;
    EXPECT_EQ(kept.dropped(), 1000u - 5 - 8) << piece;
    EXPECT_EQ(kept.text(), text.substr(0, 5) +
                               "\n[... 987 bytes not kept ...]\n" +
                               text.substr(1000 - 8))
        << "pieces of " << piece;
  }
}

TEST(BoundedText, ATailOfNothingKeepsOnlyTheHead) {
  BoundedText kept(3, 0);
  append_in_pieces(kept, "abcdefg", 2);
  EXPECT_EQ(kept.dropped(), 4u);
  EXPECT_EQ(kept.text(), "abc\n[... 4 bytes not kept ...]\n");
}

}  // namespace
}  // namespace racelab
