// The sequential model of the state family: the reference semantics, and the
// specification the linearizability oracle checks histories against.
#ifndef RACELAB_SUBJECTS_STATE_STATE_MODEL_H_
#define RACELAB_SUBJECTS_STATE_STATE_MODEL_H_

#include <map>
#include <optional>
#include <string>

namespace racelab::state {

class StateModel {
 public:
  void set(const std::string& key, std::string value) {
    data_[key] = std::move(value);
  }
  std::optional<std::string> get(const std::string& key) const {
    auto it = data_.find(key);
    if (it == data_.end()) return std::nullopt;
    return it->second;
  }
  bool erase(const std::string& key) { return data_.erase(key) > 0; }

  // The whole contents; all() must yield exactly these entries (in any order),
  // or a subset of them when it stops early.
  const std::map<std::string, std::string>& contents() const { return data_; }

  friend bool operator==(const StateModel&, const StateModel&) = default;

 private:
  std::map<std::string, std::string> data_;
};

}  // namespace racelab::state

#endif  // RACELAB_SUBJECTS_STATE_STATE_MODEL_H_
