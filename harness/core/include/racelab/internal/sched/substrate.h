// What the logical threads of a controlled run run on (Substrate), and the
// substrates' names. Its own header so that racelab/defaults.h can name the
// default substrate, and SchedulerOptions take its default from there.
#ifndef RACELAB_SCHED_SUBSTRATE_H_
#define RACELAB_SCHED_SUBSTRATE_H_

#include <optional>
#include <string_view>

namespace racelab::sched {

// What logical threads run on; see the top of racelab/sched/scheduler.h.
enum class Substrate { kFibers, kOsThreads };

// "fibers", "threads"; parse_substrate is the inverse (nullopt otherwise).
std::string_view to_string(Substrate substrate);
std::optional<Substrate> parse_substrate(std::string_view name);

}  // namespace racelab::sched

#endif  // RACELAB_SCHED_SUBSTRATE_H_
