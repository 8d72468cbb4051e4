// The racelab adapter of the ring buffer: its operations, declared. The
// sequential specification is the store itself, run on one thread.
#ifndef CUSTOM_STORE_RING_RING_SPEC_H_
#define CUSTOM_STORE_RING_RING_SPEC_H_

#include "racelab/spec.h"
#include "ring/ring_store.h"

namespace ring {

inline racelab::Spec<RingStore> ring_spec() {
  using racelab::call;
  return racelab::Spec<RingStore>("ring/mutex")
      .make(make_mutex_ring)
      .op("push", &RingStore::push, racelab::ints(0, 9))
      .op("pop", &RingStore::pop)
      .op("size", &RingStore::size)
      // Two producers race for the one free slot.
      .scenario("last_slot",
                racelab::Plan{{call("push", 100)},
                              {{call("push", 1)}, {call("push", 2)}},
                              {call("size")}});
}

inline racelab::Spec<RingStore> split_check_ring_spec() {
  return ring_spec().named("ring/split_check").make(make_split_check_ring);
}

}  // namespace ring

#endif  // CUSTOM_STORE_RING_RING_SPEC_H_
