// PersistentMap: an ordered map whose copies share structure, for sequential
// models whose state is a large map.
//
// The linearizability search keeps the model state of every configuration it
// reaches, so it copies the state at each step: with a std::map of n entries
// a history of n writes costs n^2 entry copies (seed_slow_reader's 1000 keys:
// a quarter of a second per run under ThreadSanitizer). A copy of a
// PersistentMap is one reference; set() and erase() copy only the path to
// the key (O(log n) nodes, expected), and the old version stays as it was.
//
// The tree is a treap whose priorities come from the keys' hashes, so a set
// of entries has one shape whatever order it was built in: equality compares
// the trees node by node (and stops at a shared subtree), and hash() is kept
// in every node. Copies may be used from different threads (the references
// are counted atomically), but one PersistentMap object is not to be changed
// by two threads at once, like any standard container.
//
// A version that shares nothing changes in place: set() of a key already
// there rewrites its value and the hashes above it, without a copy, when no
// other version holds any node on the path to it (a model stepped through
// one order, as the linearizability check's first guess does).
#ifndef RACELAB_PERSISTENT_MAP_H_
#define RACELAB_PERSISTENT_MAP_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace racelab {

template <class K, class V, class Less = std::less<K>>
class PersistentMap {
 public:
  PersistentMap() = default;

  std::size_t size() const { return root_ ? root_->size : 0; }
  bool empty() const { return root_ == nullptr; }

  // The value of `key`, or null. Valid while this version is.
  const V* find(const K& key) const {
    const Node* n = root_.get();
    while (n != nullptr) {
      if (less_(key, n->key)) {
        n = n->left.get();
      } else if (less_(n->key, key)) {
        n = n->right.get();
      } else {
        return &n->value;
      }
    }
    return nullptr;
  }
  bool contains(const K& key) const { return find(key) != nullptr; }

  // Adds `key` or replaces its value.
  void set(const K& key, V value) {
    if (replace_in_place(key, value)) return;
    root_ = insert(root_, key, std::move(value), priority_of(key));
  }
  // Removes `key`; whether it was there.
  bool erase(const K& key) {
    if (!contains(key)) return false;
    root_ = remove(root_, key);
    return true;
  }

  // Calls f(key, value) for every entry, in key order. When f returns a
  // bool, false stops the walk.
  template <class F>
  void for_each(F&& f) const {
    visit(root_.get(), f);
  }

  // A hash of the entries (equal maps hash equal), kept up to date: O(1).
  std::size_t hash() const { return root_ ? root_->hash : 0; }

  friend bool operator==(const PersistentMap& a, const PersistentMap& b) {
    return same(a.root_.get(), b.root_.get());
  }

 private:
  struct Node;
  using Ref = std::shared_ptr<const Node>;
  struct Node {
    K key;
    V value;
    std::uint64_t priority;
    Ref left, right;
    std::size_t size;
    std::size_t hash;  // of this subtree's entries
  };

  static std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
  }
  static std::uint64_t priority_of(const K& key) {
    return mix(std::hash<K>{}(key));
  }
  // Whether a node with (priority, key) `pa`/`ka` goes above one with
  // `pb`/`kb`: the higher priority, ties broken by key, so that the shape
  // depends on the entries only.
  bool above(std::uint64_t pa, const K& ka, std::uint64_t pb,
             const K& kb) const {
    return pa != pb ? pa > pb : less_(ka, kb);
  }

  static std::size_t hash_of(const K& key, const V& value, const Ref& left,
                             const Ref& right) {
    return mix(std::hash<K>{}(key)*31 + std::hash<V>{}(value)) +
           (left ? left->hash : 0) + (right ? right->hash : 0);
  }
  // Nodes are made non-const (and shared as const) so that a node no other
  // version holds may be changed in place (replace_in_place).
  static Ref make(const K& key, V value, std::uint64_t priority, Ref left,
                  Ref right) {
    const std::size_t size =
        1 + (left ? left->size : 0) + (right ? right->size : 0);
    const std::size_t hash = hash_of(key, value, left, right);
    return std::make_shared<Node>(Node{key, std::move(value), priority,
                                       std::move(left), std::move(right), size,
                                       hash});
  }

  // Replaces the value of `key` where it is, when `key` is present and this
  // version alone holds every node from the root to it; else changes nothing
  // and returns false. A count of one read here means no other version can
  // reach the node: the only way to it is through this one.
  bool replace_in_place(const K& key, V& value) {
    constexpr int kMaxDepth = 64;  // deeper paths take the copying way
    Node* path[kMaxDepth];
    int depth = 0;
    const Ref* ref = &root_;
    while (*ref != nullptr && depth < kMaxDepth) {
      if (ref->use_count() != 1) return false;
      Node* n = const_cast<Node*>(ref->get());
      path[depth++] = n;
      if (less_(key, n->key)) {
        ref = &n->left;
      } else if (less_(n->key, key)) {
        ref = &n->right;
      } else {
        // Whatever other versions did with these nodes before they let go
        // of them happens before the changes below.
        std::atomic_thread_fence(std::memory_order_acquire);
        n->value = std::move(value);
        for (int i = depth - 1; i >= 0; --i) {
          Node* up = path[i];
          up->hash = hash_of(up->key, up->value, up->left, up->right);
        }
        return true;
      }
    }
    return false;
  }
  static Ref with_children(const Node& n, Ref left, Ref right) {
    return make(n.key, n.value, n.priority, std::move(left), std::move(right));
  }

  // The entries of `n` below `key` and above it (`key` is not in `n`).
  std::pair<Ref, Ref> split(const Ref& n, const K& key) const {
    if (!n) return {nullptr, nullptr};
    if (less_(n->key, key)) {
      auto [low, high] = split(n->right, key);
      return {with_children(*n, n->left, std::move(low)), std::move(high)};
    }
    auto [low, high] = split(n->left, key);
    return {std::move(low), with_children(*n, std::move(high), n->right)};
  }
  // Every key of `low` is below every key of `high`.
  Ref merge(const Ref& low, const Ref& high) const {
    if (!low) return high;
    if (!high) return low;
    if (above(low->priority, low->key, high->priority, high->key)) {
      return with_children(*low, low->left, merge(low->right, high));
    }
    return with_children(*high, merge(low, high->left), high->right);
  }
  Ref insert(const Ref& n, const K& key, V value,
             std::uint64_t priority) const {
    // Every node above `key`'s place outranks it, so if `n` does not, `key`
    // is not in `n`, and it becomes the root of this subtree.
    if (!n || above(priority, key, n->priority, n->key)) {
      auto [low, high] = split(n, key);
      return make(key, std::move(value), priority, std::move(low),
                  std::move(high));
    }
    if (less_(key, n->key)) {
      return with_children(*n, insert(n->left, key, std::move(value), priority),
                           n->right);
    }
    if (less_(n->key, key)) {
      return with_children(*n, n->left,
                           insert(n->right, key, std::move(value), priority));
    }
    return make(key, std::move(value), priority, n->left, n->right);
  }
  // `key` is in `n`.
  Ref remove(const Ref& n, const K& key) const {
    if (less_(key, n->key)) {
      return with_children(*n, remove(n->left, key), n->right);
    }
    if (less_(n->key, key)) {
      return with_children(*n, n->left, remove(n->right, key));
    }
    return merge(n->left, n->right);
  }

  // Whether the walk goes on.
  template <class F>
  static bool visit(const Node* n, F& f) {
    if (n == nullptr) return true;
    if (!visit(n->left.get(), f)) return false;
    if constexpr (std::is_same_v<decltype(f(n->key, n->value)), bool>) {
      if (!f(n->key, n->value)) return false;
    } else {
      f(n->key, n->value);
    }
    return visit(n->right.get(), f);
  }
  static bool same(const Node* a, const Node* b) {
    if (a == b) return true;
    if (a == nullptr || b == nullptr) return false;
    if (a->size != b->size || a->hash != b->hash) return false;
    return a->key == b->key && a->value == b->value &&
           same(a->left.get(), b->left.get()) &&
           same(a->right.get(), b->right.get());
  }

  Ref root_;
  [[no_unique_address]] Less less_;
};

}  // namespace racelab

#endif  // RACELAB_PERSISTENT_MAP_H_
