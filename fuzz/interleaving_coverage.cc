// The interleaving counters: a switch observer that hashes preemption site
// pairs into libFuzzer's __libfuzzer_extra_counters section.
#include "interleaving_coverage.h"

namespace racelab::fuzz {
namespace {

// libFuzzer treats every byte of this section as a coverage counter. Outside
// a libFuzzer binary it is an ordinary array.
__attribute__((section("__libfuzzer_extra_counters"), used))
std::uint8_t g_counters[kInterleavingCounters];

std::uint64_t fnv1a(std::uint64_t h, const char* s) {
  for (; *s != '\0'; ++s) {
    h ^= static_cast<unsigned char>(*s);
    h *= 0x100000001b3ULL;
  }
  return h;
}

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;

}  // namespace

const std::uint8_t* interleaving_counters() { return g_counters; }

InterleavingCoverage::InterleavingCoverage(
    std::vector<std::vector<std::string>> op_kinds, bool enabled)
    : op_kinds_(std::move(op_kinds)),
      op_index_(op_kinds_.size(), 0),
      enabled_(enabled) {}

void InterleavingCoverage::attach(sched::ControlledScheduler& scheduler) {
  scheduler_ = &scheduler;
  scheduler.set_switch_observer(&InterleavingCoverage::observe, this);
}

InterleavingCoverage::~InterleavingCoverage() {
  if (scheduler_ != nullptr) scheduler_->set_switch_observer(nullptr);
}

std::uint64_t InterleavingCoverage::site_hash(int thread,
                                              const char* site) const {
  const char* kind = "-";
  if (thread >= 0 && static_cast<std::size_t>(thread) < op_kinds_.size()) {
    const int begun = op_index_[static_cast<std::size_t>(thread)];
    const auto& kinds = op_kinds_[static_cast<std::size_t>(thread)];
    if (begun > 0 && static_cast<std::size_t>(begun) <= kinds.size()) {
      kind = kinds[static_cast<std::size_t>(begun - 1)].c_str();
    }
  }
  return fnv1a(fnv1a(kFnvOffset, site), kind);
}

void InterleavingCoverage::observe(const sched::SwitchEvent& event,
                                   void* context) {
  auto* self = static_cast<InterleavingCoverage*>(context);
  const bool starts_op =
      event.from_operation_start &&
      static_cast<std::size_t>(event.from_thread) < self->op_index_.size();
  if (starts_op) ++self->op_index_[static_cast<std::size_t>(event.from_thread)];
  if (!event.preemption) return;
  ++self->preemptions_;
  if (!self->enabled_) return;
  const std::uint64_t from =
      self->site_hash(event.from_thread, event.from_site);
  const std::uint64_t to = self->site_hash(event.to_thread, event.to_site);
  const std::uint64_t pair =
      (from * 0x9e3779b97f4a7c15ULL) ^ (to + 0x632be59bd9b4e019ULL);
  std::uint8_t& counter =
      g_counters[(pair ^ (pair >> 29)) % kInterleavingCounters];
  if (counter != 255) ++counter;
}

}  // namespace racelab::fuzz
