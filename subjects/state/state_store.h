// The state family: a session's key/value state, after the Go
// `session.State` interface (Set, Get, Delete, All).
//
// all() calls `yield(key, value)` for each entry, passing references as a C++
// store naturally would; `yield` returns false to stop early. The variants
// differ in what all() guarantees while other threads write.
#ifndef RACELAB_SUBJECTS_STATE_STATE_STORE_H_
#define RACELAB_SUBJECTS_STATE_STATE_STORE_H_

#include <optional>
#include <string>

#include "absl/functional/function_ref.h"

namespace racelab::state {

using Yield =
    absl::FunctionRef<bool(const std::string& key, const std::string& value)>;

class StateStore {
 public:
  virtual ~StateStore() = default;

  virtual void set(const std::string& key, std::string value) = 0;
  virtual std::optional<std::string> get(const std::string& key) = 0;
  // Removes `key`; returns whether it was present.
  virtual bool erase(const std::string& key) = 0;
  // Calls `yield` for every entry of one consistent state of the store, until
  // it returns false. (The buggy variant breaks exactly this promise.)
  virtual void all(Yield yield) = 0;
};

}  // namespace racelab::state

#endif  // RACELAB_SUBJECTS_STATE_STATE_STORE_H_
