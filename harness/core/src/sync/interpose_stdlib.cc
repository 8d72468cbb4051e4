// The entry points of libstdc++.so that do a container's work out of line
// (std::list's relinking, std::map's and std::set's tree rebalancing and
// stepping, std::unordered_map's rehash policy, std::hash of bytes, and, in
// code compiled for C++17 or earlier, std::string's growing, replacing,
// searching and comparing), interposed for controlled runs. libstdc++.so is
// built without sanitizers, so a race whose accesses are made there is
// invisible to ThreadSanitizer. In a controlled run each definition tells
// TSan of the link and length fields the library's code reads and writes
// (so that a race on them is reported, as with libc++'s header code), tells
// the scheduler which objects it reached (a search where two threads reach
// one with no lock ordering them is not exhaustive: scheduler_blocking.cc,
// ran_unseen_code), and then calls the library's own. Outside a controlled
// run each is the library's call and nothing more.
//
// Weak, as the other interposed calls: a program linked with a static
// libstdc++ keeps that library's definitions (and loses what is told).
// Compiled without sanitizer instrumentation, as interpose.cc; libc++ has
// none of these names, so in the libc++ build they are never called.
#include <dlfcn.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "interpose_common.h"

// ThreadSanitizer's interface for an access made elsewhere (weak: absent in
// other builds).
extern "C" {
void __tsan_read8_pc(void* address, void* pc) __attribute__((weak));
void __tsan_write8_pc(void* address, void* pc) __attribute__((weak));
void __tsan_read_range_pc(void* address, unsigned long size, void* pc)
    __attribute__((weak));
}

namespace racelab::interpose_internal {
namespace {

// What the library the interposed entry points live in is called, for the
// note. Every interposed name is libstdc++'s: the first answer is kept.
const char* library_of(const void* function) {
  static const char* known = nullptr;
  const char* name = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (name != nullptr) return name;
  Dl_info info{};
  name = "libstdc++.so";
  if (function != nullptr && dladdr(function, &info) != 0 &&
      info.dli_fname != nullptr) {
    const char* slash = std::strrchr(info.dli_fname, '/');
    name = slash == nullptr ? info.dli_fname : slash + 1;
  }
  __atomic_store_n(&known, name, __ATOMIC_RELAXED);
  return name;
}

// The library's definition of `mangled`, past this executable's.
void* next_definition(const char* mangled) {
  void* found = dlsym(RTLD_NEXT, mangled);
  if (found == nullptr) {
    std::fprintf(stderr,
                 "racelab: %s is interposed but not defined by any library "
                 "loaded after the program\n",
                 mangled);
    std::abort();
  }
  return found;
}

// What an entry point touches, told twice over: to ThreadSanitizer, as the
// accesses the library's code makes to a container's links (those it makes
// through memcpy and memmove TSan sees already), so that a race between
// them and any other access is reported; and to the scheduler, as the
// objects it reaches (SchedulingHooks::ran_unseen_code), whose lockset rule
// keeps a search that cannot see everything from being called verified.
class Touch {
 public:
  Touch(UnseenCall& call, const void* pc) : call_(call), pc_(pc) {}
  void read(const void* field) {
    if (&__tsan_read8_pc != nullptr)
      __tsan_read8_pc(const_cast<void*>(field), const_cast<void*>(pc_));
  }
  void write(const void* field) {
    if (&__tsan_write8_pc != nullptr)
      __tsan_write8_pc(const_cast<void*>(field), const_cast<void*>(pc_));
  }
  void read_bytes(const void* bytes, std::size_t size) {
    if (&__tsan_read_range_pc != nullptr && size > 0) {
      __tsan_read_range_pc(const_cast<void*>(bytes), size,
                           const_cast<void*>(pc_));
    }
  }
  // An object the call reaches, for the scheduler's lockset rule.
  void object(const void* memory) {
    if (memory != nullptr && call_.count < UnseenCall::kMaxMemory)
      call_.memory[call_.count++] = memory;
  }

 private:
  UnseenCall& call_;
  const void* pc_;
};

// Tells the run, if the calling thread is one of its threads in its own
// code, that it is about to run `what` of the library that defines `real`
// from `pc`; `touch` names what it reads and writes. Only then is the
// memory read to find it: in a controlled run no other thread of the run is
// inside container code at the same time.
template <class Touches>
void ran_unseen_code(const char* what, const void* real, const void* pc,
                     bool writes, Touches touches) {
  SchedulingHooks* hooks = controlling();
  if (hooks == nullptr) return;
  UnseenCall call;
  call.what = what;
  call.library = library_of(real);
  call.writes = writes;
  Touch touch(call, pc);
  touches(touch);
  hooks->ran_unseen_code(call);
}

// libstdc++'s list node: next, then prev.
struct ListNode {
  ListNode* next;
  ListNode* prev;
};
const ListNode* list_node(const void* node) {
  return static_cast<const ListNode*>(node);
}

// libstdc++'s red-black tree node: color, parent, left, right.
struct TreeNode {
  int color;  // 0 red, 1 black
  TreeNode* parent;
  TreeNode* left;
  TreeNode* right;
};
const TreeNode* tree_node(const void* node) {
  return static_cast<const TreeNode*>(node);
}
// The tree a node belongs to, by its header: the red node whose parent's
// parent is itself (the root, the other such node, is black). The node
// itself when no header is found within a tree's height.
const void* tree_of(const void* node) {
  const TreeNode* n = tree_node(node);
  for (int depth = 0; n != nullptr && depth < 128; ++depth) {
    if (n->color == 0 && n->parent != nullptr && n->parent->parent == n)
      return n;
    n = n->parent;
  }
  return node;
}
// A tree's step from `node` (++ or --) reads its links.
void tree_step(Touch& t, const void* node) {
  const TreeNode* n = tree_node(node);
  t.object(tree_of(node));
  t.read(&n->parent);
  t.read(&n->left);
  t.read(&n->right);
}

// libstdc++'s std::string (the C++11 ABI): data pointer, then length.
struct StringHead {
  char* data;
  std::size_t length;
};
void string_reads(Touch& t, const void* self) {
  const auto* s = static_cast<const StringHead*>(self);
  t.object(self);
  t.read(&s->data);
  t.read(&s->length);
}
void string_writes(Touch& t, const void* self) {
  const auto* s = static_cast<const StringHead*>(self);
  t.object(self);
  t.write(&s->data);
  t.write(&s->length);
}
}  // namespace
}  // namespace racelab::interpose_internal

// One entry point: `id` is the local name, `mangled` libstdc++'s, `what`
// what the note calls it, `writes` whether it writes what it reaches, and
// `touches` a statement over `t` (a Touch) and the parameters naming what
// it reads and writes; `params` and `args` as a call spells them.
#define RACELAB_UNSEEN(ret, id, mangled, what, writes, touches, params, args) \
  extern "C" __attribute__((weak)) ret id params __asm__(mangled);            \
  extern "C" ret id params {                                                  \
    using Fn = ret(*) params;                                                 \
    static Fn real = nullptr;                                                 \
    Fn fn = __atomic_load_n(&real, __ATOMIC_RELAXED);                         \
    if (fn == nullptr) {                                                      \
      fn = reinterpret_cast<Fn>(                                              \
          racelab::interpose_internal::next_definition(mangled));             \
      __atomic_store_n(&real, fn, __ATOMIC_RELAXED);                          \
    }                                                                         \
    racelab::interpose_internal::ran_unseen_code(                             \
        what, reinterpret_cast<const void*>(fn), __builtin_return_address(0), \
        writes, [&](racelab::interpose_internal::Touch& t) { touches; });     \
    return fn args;                                                           \
  }

namespace {
using racelab::interpose_internal::list_node;
using racelab::interpose_internal::string_reads;
using racelab::interpose_internal::string_writes;
using racelab::interpose_internal::tree_node;
using racelab::interpose_internal::tree_of;
using racelab::interpose_internal::tree_step;
// std::pair<bool, std::size_t>, as the rehash policy returns it (two
// integer registers).
struct RehashAnswer {
  bool rehash;
  std::size_t buckets;
};
// The rehash policy: its maximum load factor, then its next threshold.
struct RehashPolicy {
  float max_load;
  std::size_t next_resize;
};
using Bytes = const void*;
using Size = std::size_t;
}  // namespace

// std::list (list.cc): every link write of insert, erase, splice, reverse,
// swap, as libstdc++ makes them.
RACELAB_UNSEEN(void, racelab_list_hook,
               "_ZNSt8__detail15_List_node_base7_M_hookEPS0_",
               "std::list's _List_node_base::_M_hook", true,
               (t.object(at), t.object(list_node(at)->prev),
                t.write(&list_node(self)->next),
                t.write(&list_node(self)->prev), t.read(&list_node(at)->prev),
                t.write(&list_node(at)->prev->next),
                t.write(&list_node(at)->prev)),
               (void* self, void* at), (self, at))
RACELAB_UNSEEN(void, racelab_list_unhook,
               "_ZNSt8__detail15_List_node_base9_M_unhookEv",
               "std::list's _List_node_base::_M_unhook", true,
               (t.object(self), t.object(list_node(self)->prev),
                t.object(list_node(self)->next), t.read(&list_node(self)->next),
                t.read(&list_node(self)->prev),
                t.write(&list_node(self)->prev->next),
                t.write(&list_node(self)->next->prev)),
               (void* self), (self))
RACELAB_UNSEEN(
    void, racelab_list_transfer,
    "_ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_",
    "std::list's _List_node_base::_M_transfer (splice)", true,
    if (self != last) {
      (t.object(self), t.object(first), t.object(last),
       t.object(list_node(self)->prev), t.object(list_node(first)->prev),
       t.read(&list_node(self)->prev), t.read(&list_node(first)->prev),
       t.read(&list_node(last)->prev), t.write(&list_node(last)->prev->next),
       t.write(&list_node(first)->prev->next),
       t.write(&list_node(self)->prev->next), t.write(&list_node(self)->prev),
       t.write(&list_node(last)->prev), t.write(&list_node(first)->prev));
    },
    (void* self, void* first, void* last), (self, first, last))
RACELAB_UNSEEN(
    void, racelab_list_reverse, "_ZNSt8__detail15_List_node_base10_M_reverseEv",
    "std::list's _List_node_base::_M_reverse", true,
    {
      t.object(self);
      const racelab::interpose_internal::ListNode* node = list_node(self);
      int left = 1 << 16;  // a list that long: its head only
      do {
        t.write(&node->next);
        t.write(&node->prev);
        node = node->next;
      } while (node != nullptr && node != self && --left > 0);
    },
    (void* self), (self))
RACELAB_UNSEEN(void, racelab_list_swap,
               "_ZNSt8__detail15_List_node_base4swapERS0_S1_",
               "std::list's _List_node_base::swap", true,
               (t.object(a), t.object(b), t.write(&list_node(a)->next),
                t.write(&list_node(a)->prev), t.write(&list_node(b)->next),
                t.write(&list_node(b)->prev)),
               (void* a, void* b), (a, b))

// std::map, std::set and their multi forms (tree.cc): insert, erase, ++
// and --, each by the tree's header. The rotations a rebalance makes are
// not told to TSan (which nodes they touch depends on the tree's colors);
// the link to the node inserted or taken out is.
RACELAB_UNSEEN(
    void, racelab_tree_insert,
    "_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_",
    "std::map's _Rb_tree_insert_and_rebalance", true,
    (t.object(header),
     t.write(left ? &tree_node(parent)->left : &tree_node(parent)->right),
     t.write(&tree_node(header)->parent)),
    (bool left, void* node, void* parent, void* header),
    (left, node, parent, header))
RACELAB_UNSEEN(void*, racelab_tree_erase,
               "_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_",
               "std::map's _Rb_tree_rebalance_for_erase", true,
               (t.object(header), t.read(&tree_node(node)->parent),
                t.write(&tree_node(header)->parent)),
               (void* node, void* header), (node, header))
RACELAB_UNSEEN(void*, racelab_tree_increment,
               "_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
               "std::map's _Rb_tree_increment", false, tree_step(t, node),
               (void* node), (node))
RACELAB_UNSEEN(const void*, racelab_tree_increment_const,
               "_ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base",
               "std::map's _Rb_tree_increment", false, tree_step(t, node),
               (const void* node), (node))
RACELAB_UNSEEN(void*, racelab_tree_decrement,
               "_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base",
               "std::map's _Rb_tree_decrement", false, tree_step(t, node),
               (void* node), (node))
RACELAB_UNSEEN(const void*, racelab_tree_decrement_const,
               "_ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base",
               "std::map's _Rb_tree_decrement", false, tree_step(t, node),
               (const void* node), (node))

// std::unordered_map and std::unordered_set (hashtable_c++0x.cc): when to
// rehash (the policy object lives in the container and keeps its next
// threshold), and std::hash over bytes (strings' keys).
RACELAB_UNSEEN(RehashAnswer, racelab_rehash_needed,
               "_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
               "std::unordered_map's _Prime_rehash_policy::_M_need_rehash",
               true,
               (t.object(self),
                t.write(&static_cast<const RehashPolicy*>(self)->next_resize)),
               (const void* self, Size buckets, Size elements, Size inserted),
               (self, buckets, elements, inserted))
RACELAB_UNSEEN(Size, racelab_rehash_next,
               "_ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm",
               "std::unordered_map's _Prime_rehash_policy::_M_next_bkt", true,
               (t.object(self),
                t.write(&static_cast<const RehashPolicy*>(self)->next_resize)),
               (const void* self, Size n), (self, n))
RACELAB_UNSEEN(Size, racelab_hash_bytes, "_ZSt11_Hash_bytesPKvmm",
               "std::hash's _Hash_bytes", false,
               (t.object(bytes), t.read_bytes(bytes, size)),
               (Bytes bytes, Size size, Size seed), (bytes, size, seed))
RACELAB_UNSEEN(Size, racelab_fnv_hash_bytes, "_ZSt15_Fnv_hash_bytesPKvmm",
               "std::hash's _Fnv_hash_bytes", false,
               (t.object(bytes), t.read_bytes(bytes, size)),
               (Bytes bytes, Size size, Size seed), (bytes, size, seed))

// std::string's members libstdc++ instantiates out of line for code
// compiled for C++17 or earlier (C++20 code instantiates its own), by the
// string object: its data pointer and length (its characters are copied
// with memcpy, which TSan sees).
#define RACELAB_STRING(name) \
  "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE" name
#define RACELAB_CSTRING(name) \
  "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE" name
RACELAB_UNSEEN(void*, racelab_string_replace,
               RACELAB_STRING("10_M_replaceEmmPKcm"),
               "std::string's _M_replace", true, string_writes(t, self),
               (void* self, Size at, Size n, const char* s, Size size),
               (self, at, n, s, size))
RACELAB_UNSEEN(void*, racelab_string_replace_aux,
               RACELAB_STRING("14_M_replace_auxEmmmc"),
               "std::string's _M_replace_aux", true, string_writes(t, self),
               (void* self, Size at, Size n, Size count, char c),
               (self, at, n, count, c))
RACELAB_UNSEEN(void*, racelab_string_append, RACELAB_STRING("9_M_appendEPKcm"),
               "std::string's _M_append", true, string_writes(t, self),
               (void* self, const char* s, Size size), (self, s, size))
RACELAB_UNSEEN(void, racelab_string_mutate, RACELAB_STRING("9_M_mutateEmmPKcm"),
               "std::string's _M_mutate", true, string_writes(t, self),
               (void* self, Size at, Size n, const char* s, Size size),
               (self, at, n, s, size))
RACELAB_UNSEEN(void, racelab_string_erase, RACELAB_STRING("8_M_eraseEmm"),
               "std::string's _M_erase", true, string_writes(t, self),
               (void* self, Size at, Size n), (self, at, n))
RACELAB_UNSEEN(void, racelab_string_assign, RACELAB_STRING("9_M_assignERKS4_"),
               "std::string's _M_assign", true,
               (string_writes(t, self), string_reads(t, other)),
               (void* self, const void* other), (self, other))
RACELAB_UNSEEN(void, racelab_string_reserve, RACELAB_STRING("7reserveEm"),
               "std::string's reserve", true, string_writes(t, self),
               (void* self, Size n), (self, n))
RACELAB_UNSEEN(void, racelab_string_resize, RACELAB_STRING("6resizeEmc"),
               "std::string's resize", true, string_writes(t, self),
               (void* self, Size n, char c), (self, n, c))
RACELAB_UNSEEN(void, racelab_string_swap, RACELAB_STRING("4swapERS4_"),
               "std::string's swap", true,
               (string_writes(t, self), string_writes(t, other)),
               (void* self, void* other), (self, other))
RACELAB_UNSEEN(Size, racelab_string_find_char, RACELAB_CSTRING("4findEcm"),
               "std::string's find", false, string_reads(t, self),
               (const void* self, char c, Size at), (self, c, at))
RACELAB_UNSEEN(Size, racelab_string_find, RACELAB_CSTRING("4findEPKcmm"),
               "std::string's find", false, string_reads(t, self),
               (const void* self, const char* s, Size at, Size size),
               (self, s, at, size))
RACELAB_UNSEEN(int, racelab_string_compare, RACELAB_CSTRING("7compareEPKc"),
               "std::string's compare", false, string_reads(t, self),
               (const void* self, const char* s), (self, s))
