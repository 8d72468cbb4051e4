// Expectations: the verdict each case must produce, and how an observed set of
// findings is judged against it. The rows themselves live beside the subjects,
// as compile-time values (ExpectationRow), so that a misspelt kind or mode
// does not compile.
#ifndef RACELAB_EXPECTATION_H_
#define RACELAB_EXPECTATION_H_

#include <array>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "racelab/finding.h"
#include "racelab/internal/case.h"

namespace racelab {

struct Expectation {
  std::string subject;
  std::string scenario;
  std::vector<Mode> modes;  // the modes this row applies to
  // Empty: the case must be clean in every run. Otherwise at least one run
  // must end with a finding of one of these kinds.
  std::vector<FindingKind> catches;
  // Further kinds a run of a buggy case may show, as consequences of the same
  // bug (a corrupted map may crash). Any other kind is a mismatch.
  std::vector<FindingKind> may_also;
  std::string why;
  // Controlled mode must also prove it: the search (dfs, with partial-order
  // reduction) must be exhausted without a finding, so that every schedule
  // that matters, within the preemption bound, is clean (`verified`), not
  // only the schedules a budget allowed (`clean`). The table's rule: every
  // row that expects clean for a scenario of one fixed program
  // (ScenarioPrograms::kOne) and covers controlled mode; a seeded scenario
  // (`generated`) is a different program for every seed, which no search
  // covers.
  bool verified = false;
};

// A short list of enum values fixed at compile time, in the order written.
template <class E, int N>
class FixedList {
 public:
  constexpr FixedList() = default;
  constexpr FixedList(std::initializer_list<E> values) {
    for (E v : values) push_back(v);
  }
  // This list followed by `more`.
  constexpr FixedList operator+(const FixedList& more) const {
    FixedList out = *this;
    for (int i = 0; i < more.size_; ++i) out.push_back(more.values_[i]);
    return out;
  }
  constexpr int size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool contains(E v) const {
    for (int i = 0; i < size_; ++i) {
      if (values_[i] == v) return true;
    }
    return false;
  }
  std::vector<E> to_vector() const {
    return std::vector<E>(values_.begin(), values_.begin() + size_);
  }

 private:
  constexpr void push_back(E v) {
    // Fails to compile in a constant expression when the list is full.
    if (size_ == N) throw "FixedList: too many values";
    values_[size_++] = v;
  }
  std::array<E, N> values_{};
  int size_ = 0;
};

using KindList = FixedList<FindingKind, 12>;
using ModeList = FixedList<Mode, 2>;

// One row of a subject's expectations, written beside the subject: the
// scenario, the modes the row applies to, the kinds that catch the bug (empty:
// the case must be clean), the further kinds the bug may cause, and why.
struct ExpectationRow {
  const char* scenario;
  ModeList modes;
  KindList catches;
  KindList may_also;
  const char* why;
};

// How many programs a scenario stands for: one (its program ignores the
// seed), or one per seed (Scenario::seeded).
enum class ScenarioPrograms { kOne, kOnePerSeed };

// The expectation a row states for `subject` (family/variant), whose scenario
// stands for `programs`.
Expectation expectation_of(const std::string& subject,
                           const ExpectationRow& row,
                           ScenarioPrograms programs);

// Which oracle reports a kind of finding. (TSan also reports
// heap-use-after-free when the free races with the access; the table credits
// ASan, whose job it is.)
Oracle oracle_of(FindingKind kind);

// "clean", or the kinds joined with " or "; for a row that must be verified,
// "clean (controlled: verified)".
std::string describe_expected(const Expectation& e);
// Whether row `e` asks, in `mode`, for a search that proves it clean: the row
// says verified and the mode is controlled.
bool asks_to_verify(const Expectation& e, Mode mode);
// Whether a case of row `e` in `mode`, searched with `strategy`, must come
// out verified: the row says so, the mode is controlled and the strategy
// can exhaust a search (dfs, plain-dfs; random and pct cannot, so their
// clean cases are judged clean).
bool must_verify(const Expectation& e, Mode mode, std::string_view strategy);
// What such a case must show: "verified" when it must be verified, else as
// above.
std::string describe_expected(const Expectation& e, bool verify);

// Judges the kinds observed over all runs of a case. Returns an empty string
// when they meet the expectation, else the reason for the mismatch.
std::string judge(const Expectation& e,
                  const std::vector<FindingKind>& observed);
// The same for a case in `mode` whose searches were all exhausted without a
// finding (`verified`) or not: a row that must be verified and is only clean
// is a mismatch, and so is a verified case whose row does not say verified
// (the table is out of date).
std::string judge(const Expectation& e, bool verify,
                  const std::vector<FindingKind>& observed, bool verified);

}  // namespace racelab

#endif  // RACELAB_EXPECTATION_H_
