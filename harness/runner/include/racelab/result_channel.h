// The lines a child writes on its result channel (one JSON object per line):
//   {"event":"tsan_report","kind":"data-race"}        from the TSan hook
//   {"event":"asan_report","kind":"...","frame":"..."} from the ASan death
//   callback
//   {"event":"deadlock","message":"..."}              a self-deadlock, then
//   exit
//   {"event":"error","message":"..."}                 the child could not run
//   {"event":"progress"}                              controlled mode, once a
//   second
//   {"event":"starved"}                               the run stands still but
//   its threads wait for the CPU (no evidence of a hang), once a second
//   {"event":"run_done","observation":{...}}         a run's observation, as
//   observation_json.h writes it
#ifndef RACELAB_HARNESS_SRC_RESULT_CHANNEL_H_
#define RACELAB_HARNESS_SRC_RESULT_CHANNEL_H_

#include <nlohmann/json.hpp>
#include <string>

#include "racelab/internal/case.h"

namespace racelab {

std::string event_line(const std::string& event, const std::string& message);
std::string run_done_line(const RunObservation& observation);

}  // namespace racelab

#endif  // RACELAB_HARNESS_SRC_RESULT_CHANNEL_H_
