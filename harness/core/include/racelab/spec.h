// The front door of the kit: a store's operations declared from its member
// functions, and everything else derived from them.
//
//   racelab::Spec<Ring> ring_spec() {
//     return racelab::Spec<Ring>("ring")
//         .op("push", &Ring::push, racelab::ints(0, 9))
//         .op("pop", &Ring::pop)
//         .op("size", &Ring::size);
//   }
//   RACELAB_SPEC_TESTS(MutexRing, ring_spec());                 // gtest.h
//   RACELAB_SPEC_EXPECT_CAUGHT(SplitRing,
//                              ring_spec().make(make_split_check_ring));
//
// From the declarations come how operations read in traces and schedule files
// ("push(3)", "-> none"), how they read back (replays), random programs (a
// "random" scenario: setup, threads of calls, a finale), and the sequential
// specification: by default the same class, fresh, run on one thread, in the
// order the linearizability search tries (Lincheck's rule). A different
// reference class may be given (Spec<Ring, std::deque-based RefRing>); its
// operations are then declared with generic lambdas that fit both classes:
//   .op("push", [](auto& r, int v) { return r.push(v); }, racelab::ints(0, 9))
//
// Per operation, after its generators:
//   racelab::may_fail_with(v)   the result v is also allowed and changes
//                               nothing (a try_pop that may fail spuriously);
//   racelab::judged_by(f)       f(model&, args..., result) -> bool decides
//                               instead of running the model (a bag: any
//                               element present may come out).
// An operation's callable may take `racelab::CallContext&` (or OpContext&)
// after the store: ctx.pause() is a scheduling point in controlled mode,
// ctx.nested("set", k, v) a call made from inside the operation.
//
// Per spec: make(factory) (default: std::make_unique<Store>()), model(factory),
// partition_by_argument(i, "session") (independent keys are checked one key
// at a time), threads(n) / operations(small, full) / setup_calls(n) /
// finale_calls(n) for the random programs,
// scenario(name, plan) for hand-written programs, invariant(name, check),
// options(CheckOptions) for the store's defaults (oracles, suppressions).
//
// Only small typed wrappers are instantiated in the user's file; the engine
// runs them type-erased (src/kit/spec.cc), so an adapter compiles quickly.
#ifndef RACELAB_SPEC_H_
#define RACELAB_SPEC_H_

#include <any>
#include <concepts>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "racelab/generators.h"
#include "racelab/internal/history.h"
#include "racelab/internal/op_context.h"
#include "racelab/internal/scenario.h"
#include "racelab/kit.h"
#include "racelab/show.h"

namespace racelab {

// ---------------------------------------------------------------------------
// The erased form the engine runs (filled in by Spec; src/kit/spec.cc).

using ErasedValue = std::shared_ptr<const void>;
struct SpecCore;
class CallContext;

// One call of a program: a declared operation and its arguments (a
// std::tuple of the generators' value types).
struct DeclaredCall {
  const SpecCore* spec = nullptr;
  int op = -1;
  ErasedValue args;
};

// What a call returned (the operation's result type; `Done` for void).
struct DeclaredValue {
  ErasedValue value;
};

// The result of an operation that returns nothing.
struct Done {
  bool operator==(const Done&) const = default;
};
inline std::string to_string(const Done&) { return "ok"; }

struct OperationDecl {
  std::string name;
  int arity = 0;
  std::function<ErasedValue(Choices&)> generate;
  // "3,k1": the arguments as written between the parentheses.
  std::function<std::string(const void* args)> show_args;
  std::function<std::string(const void* args, int index)> show_arg;
  // From a program's text; nullopt when an argument does not read.
  std::function<std::optional<ErasedValue>(const std::vector<std::string>&)>
      parse_args;
  // From racelab::call(); on a type mismatch, nullopt and *error says what.
  std::function<std::optional<ErasedValue>(const std::vector<std::any>&,
                                           std::string* error)>
      make_args;
  std::function<const void*(const void* args, int index)> arg;
  std::vector<const std::type_info*> arg_types;
  const std::type_info* result_type = nullptr;
  // Runs the call on the store under test.
  std::function<ErasedValue(void* store, const void* args, CallContext&)> run;
  std::function<std::string(const void* result)> show_result;
  // The sequential specification: runs the call on `model` and says whether
  // it may return `result`.
  // Replaying a state runs step() again with the recorded results. Unset
  // when the model class has no such operation and no judged_by was given.
  std::function<bool(void* model, const void* args, const void* result)> step;
  // may_fail_with: a result allowed without any effect (unset: none).
  std::function<bool(const void* result)> no_effect;
};

// One call as a hand-written program names it (racelab::call).
struct PlannedCall {
  std::string name;
  std::vector<std::any> args;
};

// A hand-written program: setup calls, one list per thread, finale calls.
struct Plan {
  std::vector<PlannedCall> setup;
  std::vector<std::vector<PlannedCall>> threads;
  std::vector<PlannedCall> finale;
};

// call("push", 3): integers, bools and strings are converted to the
// operation's argument types; other arguments must have their exact type.
template <class... Args>
PlannedCall call(std::string name, Args&&... args) {
  auto normalize = [](auto&& a) -> std::any {
    using A = std::decay_t<decltype(a)>;
    if constexpr (std::same_as<A, bool>) {
      return a;
    } else if constexpr (std::integral<A>) {
      return static_cast<long long>(a);
    } else if constexpr (std::is_convertible_v<A, std::string_view>) {
      return std::string(std::string_view(a));
    } else {
      return A(std::forward<decltype(a)>(a));
    }
  };
  return {std::move(name), {normalize(std::forward<Args>(args))...}};
}

// What an operation's callable may take after the store: the engine's
// context (thread, pause, clock) and calls made from inside the operation
// (from a callback it passes to the store), recorded as nested calls of the
// same thread: ctx.nested("set", key, value) runs the declared "set" on the
// store. Run by the sequential specification, nested() does nothing (the
// nested call has its own place in the history).
class CallContext : public OpContext {
 public:
  template <class... Args>
  void nested(std::string name, Args&&... args) {
    run_nested(call(std::move(name), std::forward<Args>(args)...));
  }
  virtual void run_nested(const PlannedCall& planned) = 0;
};

// The calls of a finished run, for invariants.
class CallView {
 public:
  CallView(const OperationDecl* decl, const DeclaredCall* call,
           const DeclaredValue* result, int thread, bool nested)
      : decl_(decl),
        call_(call),
        result_(result),
        thread_(thread),
        nested_(nested) {}
  const std::string& name() const { return decl_->name; }
  int thread() const { return thread_; }   // kSetupThread for setup calls
  bool nested() const { return nested_; }  // made from inside another call
  template <class T>
  const T& arg(int index) const {
    check_type(*decl_->arg_types.at(static_cast<std::size_t>(index)),
               typeid(T));
    return *static_cast<const T*>(decl_->arg(call_->args.get(), index));
  }
  template <class R>
  const R& result() const {
    check_type(*decl_->result_type, typeid(R));
    return *static_cast<const R*>(result_->value.get());
  }

 private:
  void check_type(const std::type_info& have, const std::type_info& want) const;
  const OperationDecl* decl_;
  const DeclaredCall* call_;
  const DeclaredValue* result_;
  int thread_;
  bool nested_;
};
using Calls = std::vector<CallView>;

struct InvariantDecl {
  std::string name;
  // Empty when the invariant holds over the quiescent store.
  std::function<std::string(const Calls&, void* store)> check;
  // Declared over the calls alone: it touches nothing under test, so it
  // runs where TSan does not watch (sched::HarnessScope).
  bool calls_only = false;
};

struct ScenarioDecl {
  std::string name;
  std::string description;
  std::function<Plan(std::uint64_t seed, ProgramSize size)> plan;
  bool seeded = false;  // the plan was declared as a function of the seed
  std::vector<Mode> modes = {Mode::kStress, Mode::kControlled};
};

struct SpecCore {
  std::string name;
  std::vector<OperationDecl> ops;
  std::function<std::shared_ptr<void>()> make_store;
  std::function<std::shared_ptr<void>()> make_model;
  // Set when the model is copyable: the search then copies states instead
  // of replaying the calls that led to them.
  std::function<std::shared_ptr<void>(const void* model)> copy_model;
  // Set when the model can be shown; with equal/hash, equal states found
  // by different orders are searched once. The hash is the model's own
  // (std::hash<Model>, or a member hash()) when it has one, else that of
  // how it is shown.
  std::function<std::string(const void* model)> show_model;
  std::function<bool(const void* a, const void* b)> equal_models;
  std::function<std::size_t(const void* model)> hash_model;
  int partition_argument = -1;
  std::string partition_name = "part";
  // The random scenario: calls before, per thread (small / full size), after.
  bool random_scenario = true;
  int threads = 2;
  int small_operations = 3;
  int full_operations = 100;
  int setup_operations = 1;
  int finale_operations = 1;
  std::vector<ScenarioDecl> scenarios;
  std::vector<InvariantDecl> invariants;
  CheckOptions options;
};
using SpecRef = std::shared_ptr<const SpecCore>;

// The kit's checks of a spec (src/kit/spec.cc). Scenario names: "random"
// and the hand-written ones, in declaration order.
std::vector<std::string> spec_scenario_names(const SpecRef& spec);
CheckResult check_spec(const SpecRef& spec, std::string_view scenario,
                       CheckOptions options);
CheckResult replay_spec(const SpecRef& spec, std::string_view scenario,
                        const std::string& schedule_file, CheckOptions options);
// Every scenario x mode x oracle of the spec (per_oracle), or one case per
// scenario x mode; only the oracles of spec->options.oracles.
std::vector<KitCase> spec_cases(const SpecRef& spec, bool per_oracle = true,
                                std::vector<Mode> only_modes = {});
CheckResult run_spec_case(const SpecRef& spec, const KitCase& c);
// The verdict on a known-buggy store: every scenario of the spec in
// controlled mode, judged by the spec's oracles together; caught when at
// least one scenario catches the bug. The result is the first catching
// scenario's (findings, trace, schedule file), clean when none caught it;
// its message names the scenarios that caught it and those that did not,
// then each catching scenario's message.
CheckResult check_spec_caught(const SpecRef& spec);
// The engine's view of a spec, for a catalog of many stores (the built-in
// catalog registers its families this way, scenarios/catalog.cc): one
// scenario's runs as CaseSpec::run wants them, and the check of a recorded
// program line (CaseSpec::check_program_line).
struct SpecScenarioInfo {
  std::string name;
  std::string description;
  std::vector<Mode> modes;
  bool seeded = true;  // a program per seed (the random scenario is)
};
std::vector<SpecScenarioInfo> spec_scenarios(const SpecRef& spec);
std::function<RunObservation(const RunRequest&)> spec_case_runner(
    const SpecRef& spec, std::string_view scenario);
std::function<std::string(std::string_view line)> spec_program_line_checker(
    const SpecRef& spec);

// One fuzz input against the spec (fuzz_target.h's format); 0, or the
// finding's exit path.
int fuzz_spec_input(const SpecRef& spec, const std::uint8_t* data,
                    std::size_t size);

// The linearizability oracle of a spec on a recorded history of its calls,
// one part at a time when the spec is partitioned: what every run's history
// goes through (tests give it histories of their own making).
std::vector<Finding> check_spec_linearizability(
    const History<DeclaredCall, DeclaredValue>& history);

// For a fuzz target with an input format of its own (racelab's fuzz/): one
// controlled run of `plan` on a fresh store of the spec, every scheduling
// decision from `strategy`, judged by `oracles` (Oracle::kInvariants: the
// spec's invariants; TSan's reports through take_tsan_findings). A run with
// findings is run once more with its trace on (with_trace) and gets its
// program's text; `describe_always` gives a clean run its text too.
RunObservation run_spec_plan(const SpecRef& spec, const Plan& plan,
                             OracleSet oracles,
                             sched::ControlledScheduler& scheduler,
                             sched::Strategy& strategy,
                             bool describe_always = false);

// The text of programs as schedule files record them: a setup line, one
// line per thread, a finale line ("commit(a,p0.0); index(a)"). A plan's
// text; throws InputError when a call is not one of the spec's operations.
std::vector<std::string> spec_program_text(const SpecRef& spec,
                                           const Plan& plan);
// Recorded text read back with the spec's operations and written again;
// throws InputError naming the first operation that does not read.
std::vector<std::string> reread_spec_program(
    const SpecRef& spec, const std::vector<std::string>& lines);
// One operation's text read back and written again ("index(s,pause)"), or
// nullopt when the text is no operation of the spec.
std::optional<std::string> reread_spec_operation(const SpecRef& spec,
                                                 std::string_view text);

// ---------------------------------------------------------------------------
// Per-operation options.

template <class V>
struct MayFailWith {
  V value;
};
template <class V>
MayFailWith<std::decay_t<V>> may_fail_with(V&& value) {
  return {std::forward<V>(value)};
}

template <class F>
struct JudgedBy {
  F judge;
};
template <class F>
JudgedBy<F> judged_by(F judge) {
  return {std::move(judge)};
}

namespace spec_internal {

template <class T>
struct IsMayFail : std::false_type {};
template <class V>
struct IsMayFail<MayFailWith<V>> : std::true_type {};
template <class T>
struct IsJudgedBy : std::false_type {};
template <class F>
struct IsJudgedBy<JudgedBy<F>> : std::true_type {};

template <class Item>
auto generator_part(Item item) {
  if constexpr (Generator<Item>) {
    return std::tuple<Item>(std::move(item));
  } else {
    static_assert(IsMayFail<Item>::value || IsJudgedBy<Item>::value,
                  "an operation takes generators (racelab::ints, values, "
                  "keys, bools), may_fail_with(v) and judged_by(f)");
    return std::tuple<>();
  }
}

// A model with a hash of its own: the search hashes every state it reaches,
// and showing one to hash the text costs far more.
template <class M>
concept HashedByStd = requires(const M& m) {
  { std::hash<M>{}(m) } -> std::convertible_to<std::size_t>;
};
template <class M>
concept HashesItself = requires(const M& m) {
  { m.hash() } -> std::convertible_to<std::size_t>;
};

template <class Gens>
struct ArgsOf;
template <class... G>
struct ArgsOf<std::tuple<G...>> {
  using type = std::tuple<typename G::value_type...>;
};

// A sequential context for the model's calls.
class ModelContext final : public CallContext {
 public:
  int thread() const override { return 0; }
  void pause() override {}
  std::uint64_t now(Tick) override { return 0; }
  void run_nested(const PlannedCall&) override {}
};

// Whether fn can run on a Target with the arguments (and a context).
template <class Fn, class Target, class Args>
struct CallableOn;
template <class Fn, class Target, class... A>
struct CallableOn<Fn, Target, std::tuple<A...>> {
  static constexpr bool value =
      std::is_invocable_v<Fn&, Target&, const A&...> ||
      std::is_invocable_v<Fn&, Target&, CallContext&, const A&...>;
};

// Calls fn on target with the arguments, passing ctx when fn takes it. Plain
// calls rather than std::apply and std::invoke: each template level between
// the harness and the store is one more frame in every ThreadSanitizer report
// on the store, which TSan symbolizes and matches against its suppressions
// for each report it builds, repeats included.
template <class Target, class Fn, class... A, std::size_t... I>
decltype(auto) invoke_at(Fn& fn, Target& target, CallContext& ctx,
                         const std::tuple<A...>& args,
                         std::index_sequence<I...>) {
  constexpr bool kTakesContext =
      std::is_invocable_v<Fn&, Target&, CallContext&, const A&...>;
  if constexpr (std::is_member_function_pointer_v<Fn>) {
    if constexpr (kTakesContext)
      return (target.*fn)(ctx, std::get<I>(args)...);
    else
      return (target.*fn)(std::get<I>(args)...);
  } else if constexpr (kTakesContext) {
    return fn(target, ctx, std::get<I>(args)...);
  } else {
    return fn(target, std::get<I>(args)...);
  }
}
template <class Target, class Fn, class... A>
decltype(auto) invoke(Fn& fn, Target& target, CallContext& ctx,
                      const std::tuple<A...>& args) {
  return invoke_at(fn, target, ctx, args, std::index_sequence_for<A...>());
}

template <class Target, class Fn, class Args>
auto invoke_for_result(Fn& fn, Target& target, CallContext& ctx,
                       const Args& args) {
  using Raw = decltype(invoke(fn, target, ctx, args));
  if constexpr (std::is_void_v<Raw>) {
    invoke(fn, target, ctx, args);
    return Done{};
  } else {
    return std::decay_t<Raw>(invoke(fn, target, ctx, args));
  }
}

// Converts one racelab::call() argument to T.
template <class T>
std::optional<T> convert_arg(const std::any& a) {
  if (const T* exact = std::any_cast<T>(&a)) return *exact;
  if constexpr (std::integral<T> && !std::same_as<T, bool>) {
    if (const long long* n = std::any_cast<long long>(&a)) {
      if (std::in_range<T>(*n)) return static_cast<T>(*n);
    }
  }
  return std::nullopt;
}

std::string type_mismatch(int index, const std::type_info& want,
                          const std::any& have);

}  // namespace spec_internal

// A declared store type: operations, model, programs. `Model` is the
// sequential specification's class (default: the store's own).
template <class Store, class Model = Store>
class Spec {
 public:
  explicit Spec(std::string name = "store")
      : core_(std::make_shared<SpecCore>()) {
    core_->name = std::move(name);
    if constexpr (std::is_default_constructible_v<Store> &&
                  !std::is_abstract_v<Store>) {
      core_->make_store = [] {
        return std::shared_ptr<void>(std::make_shared<Store>());
      };
    }
    if constexpr (!std::is_same_v<Model, Store> &&
                  std::is_default_constructible_v<Model>) {
      model([] { return std::make_unique<Model>(); });
    }
    if constexpr (std::is_copy_constructible_v<Model> &&
                  !std::is_abstract_v<Model>) {
      core_->copy_model = [](const void* m) {
        return std::shared_ptr<void>(
            std::make_shared<Model>(*static_cast<const Model*>(m)));
      };
    }
    if constexpr (Showable<Model>) {
      core_->show_model = [](const void* m) {
        return show(*static_cast<const Model*>(m));
      };
    }
    if constexpr (std::equality_comparable<Model> && Showable<Model>) {
      core_->equal_models = [](const void* a, const void* b) {
        return *static_cast<const Model*>(a) == *static_cast<const Model*>(b);
      };
      core_->hash_model = [](const void* m) -> std::size_t {
        const Model& model = *static_cast<const Model*>(m);
        if constexpr (spec_internal::HashedByStd<Model>) {
          return std::hash<Model>{}(model);
        } else if constexpr (spec_internal::HashesItself<Model>) {
          return model.hash();
        } else {
          return std::hash<std::string>{}(show(model));
        }
      };
    }
  }
  // Copies are independent: changing one leaves the other as it was.
  Spec(const Spec& other) : core_(std::make_shared<SpecCore>(*other.core_)) {}
  Spec& operator=(const Spec& other) {
    core_ = std::make_shared<SpecCore>(*other.core_);
    return *this;
  }
  Spec(Spec&&) noexcept = default;
  Spec& operator=(Spec&&) noexcept = default;

  // Where stores under test come from: any callable returning a
  // std::unique_ptr or std::shared_ptr to a Store (or a class derived from
  // it). Unless model() is given, the model is a fresh store from here too.
  template <class Factory>
  Spec& make(Factory factory) {
    core_->make_store = [factory]() mutable {
      std::shared_ptr<Store> store(factory());
      return std::shared_ptr<void>(std::move(store));
    };
    return *this;
  }

  // Where the sequential specification's objects come from.
  template <class Factory>
  Spec& model(Factory factory) {
    core_->make_model = [factory]() mutable {
      std::shared_ptr<Model> model(factory());
      return std::shared_ptr<void>(std::move(model));
    };
    return *this;
  }

  // Declares an operation: its name, what it calls (a member function of
  // Store, or a callable taking Store& [, OpContext&] and the arguments), a
  // generator per argument, then options (may_fail_with, judged_by).
  template <class Fn, class... Items>
  Spec& op(std::string name, Fn fn, Items... items) {
    auto gens = std::tuple_cat(spec_internal::generator_part(items)...);
    using Gens = decltype(gens);
    using Args = typename spec_internal::ArgsOf<Gens>::type;
    static_assert(spec_internal::CallableOn<Fn, Store, Args>::value,
                  "the operation cannot be called on the store with its "
                  "generators' values (one generator per argument, in order)");
    using R = decltype(spec_internal::invoke_for_result(
        fn, std::declval<Store&>(), std::declval<CallContext&>(),
        std::declval<const Args&>()));
    static_assert(std::equality_comparable<R>,
                  "an operation's result must be comparable with ==");
    static_assert(Showable<R>,
                  "racelab cannot show this operation's result: give its "
                  "type an operator<< or a to_string()");
    constexpr int kArity = static_cast<int>(std::tuple_size_v<Args>);

    OperationDecl d;
    d.name = std::move(name);
    d.arity = kArity;
    d.result_type = &typeid(R);
    d.generate = [gens](Choices& c) {
      return ErasedValue(std::make_shared<Args>(std::apply(
          [&c](const auto&... g) { return Args(g.generate(c)...); }, gens)));
    };
    // A last generator with kRestOfArguments writes its words unescaped
    // ("all(pause,stop=2)"), nothing at all when there are none.
    constexpr bool kRest = rest_of_arguments<Gens>();
    d.show_args = [](const void* a) {
      std::string out;
      int i = 0;
      std::apply(
          [&](const auto&... v) {
            auto add = [&](const auto& value) {
              const bool rest = kRest && i == kArity - 1;
              std::string text = rest ? show(value) : show_argument(value);
              if (!rest || !text.empty()) out += (i == 0 ? "" : ",") + text;
              ++i;
            };
            (add(v), ...);
          },
          *static_cast<const Args*>(a));
      return out;
    };
    d.arg = [](const void* a, int index) {
      return element(*static_cast<const Args*>(a), index,
                     std::make_index_sequence<kArity>());
    };
    d.show_arg = [](const void* a, int index) {
      std::string out;
      int i = 0;
      std::apply(
          [&](const auto&... v) {
            ((out += (i++ == index ? show_argument(v) : std::string())), ...);
          },
          *static_cast<const Args*>(a));
      return out;
    };
    d.arg_types = types(std::make_index_sequence<kArity>(), (Args*)nullptr);
    d.parse_args = [gens](const std::vector<std::string>& texts)
        -> std::optional<ErasedValue> {
      if constexpr (kRest) {
        if (static_cast<int>(texts.size()) < kArity - 1) return std::nullopt;
        constexpr auto kFirst = static_cast<std::size_t>(kArity - 1);
        std::vector<std::string> joined(texts.begin(), texts.begin() + kFirst);
        std::string rest;
        for (std::size_t i = kFirst; i < texts.size(); ++i)
          rest += (i == kFirst ? "" : ",") + texts[i];
        joined.push_back(std::move(rest));
        return parse_all(gens, joined, std::make_index_sequence<kArity>());
      }
      if (static_cast<int>(texts.size()) != kArity) return std::nullopt;
      return parse_all(gens, texts, std::make_index_sequence<kArity>());
    };
    d.make_args = [](const std::vector<std::any>& given,
                     std::string* error) -> std::optional<ErasedValue> {
      if (static_cast<int>(given.size()) != kArity) {
        *error = "takes " + std::to_string(kArity) + " arguments, not " +
                 std::to_string(given.size());
        return std::nullopt;
      }
      return convert_all((Args*)nullptr, given, error,
                         std::make_index_sequence<kArity>());
    };
    d.run = [fn](void* store, const void* a, CallContext& ctx) mutable {
      return ErasedValue(std::make_shared<R>(spec_internal::invoke_for_result(
          fn, *static_cast<Store*>(store), ctx, *static_cast<const Args*>(a))));
    };
    d.show_result = [](const void* r) {
      return show(*static_cast<const R*>(r));
    };
    add_model_side<R, Args>(d, fn, items...);
    core_->ops.push_back(std::move(d));
    return *this;
  }

  // Calls whose argument `index` differs touch independent parts of the
  // store (keys, sessions); the history is checked one part at a time.
  Spec& partition_by_argument(int index, std::string name = "part") {
    core_->partition_argument = index;
    core_->partition_name = std::move(name);
    return *this;
  }

  // The random scenario's shape: threads, and calls per thread in
  // controlled mode (small) and stress mode (full).
  Spec& threads(int n) {
    core_->threads = n;
    return *this;
  }
  Spec& operations(int small, int full) {
    core_->small_operations = small;
    core_->full_operations = full;
    return *this;
  }
  // Random calls made on one thread before the threads start (default 1)
  // and after they end (default 1). A store that sets itself up lazily, on
  // its first call, needs 0 setup calls for the threads to race on that.
  Spec& setup_calls(int n) {
    core_->setup_operations = n;
    return *this;
  }
  Spec& finale_calls(int n) {
    core_->finale_operations = n;
    return *this;
  }
  // Leaves the random scenario out (only hand-written ones run).
  Spec& without_random_scenario() {
    core_->random_scenario = false;
    return *this;
  }

  // A hand-written program: a Plan, or a function of the size (and seed)
  // returning one; the modes it runs in (default: both).
  template <class P>
  Spec& scenario(std::string name, P plan, std::string description = "",
                 std::vector<Mode> modes = {Mode::kStress, Mode::kControlled}) {
    ScenarioDecl s;
    s.name = std::move(name);
    s.description = std::move(description);
    s.modes = std::move(modes);
    if constexpr (std::is_invocable_r_v<Plan, P&, std::uint64_t, ProgramSize>) {
      s.plan = std::move(plan);
      s.seeded = true;
    } else if constexpr (std::is_invocable_r_v<Plan, P&, ProgramSize>) {
      s.plan = [plan](std::uint64_t, ProgramSize size) mutable {
        return plan(size);
      };
    } else {
      s.plan = [plan = Plan(plan)](std::uint64_t, ProgramSize) { return plan; };
    }
    core_->scenarios.push_back(std::move(s));
    return *this;
  }

  // An invariant over the quiescent store after every run: a callable
  // taking Store& (and optionally const racelab::Calls&, the run's calls)
  // that returns "" when it holds, else what is wrong. One that takes only
  // const racelab::Calls& judges the calls alone and runs off TSan's
  // instrumented path, as the linearizability check does.
  template <class Check>
  Spec& invariant(std::string name, Check check) {
    InvariantDecl inv;
    inv.name = std::move(name);
    inv.calls_only = std::is_invocable_v<Check&, const Calls&>;
    inv.check = [check](const Calls& calls, void* store) mutable {
      if constexpr (std::is_invocable_v<Check&, const Calls&>) {
        return std::string(check(calls));
      } else if constexpr (std::is_invocable_v<Check&, Store&, const Calls&>) {
        return std::string(check(*static_cast<Store*>(store), calls));
      } else {
        return std::string(check(*static_cast<Store*>(store)));
      }
    };
    core_->invariants.push_back(std::move(inv));
    return *this;
  }

  // The store's defaults for every check (oracles left out, suppressions).
  Spec& options(CheckOptions options) {
    core_->options = std::move(options);
    return *this;
  }

  // Renames the spec (the store's name in messages, schedule files and
  // reports): ring_spec().named("ring/split_check").make(make_split_ring).
  Spec& named(std::string name) {
    core_->name = std::move(name);
    return *this;
  }
  const std::string& name() const { return core_->name; }
  // The erased form, shared by the checks.
  SpecRef core() const { return std::make_shared<SpecCore>(*core_); }
  operator SpecRef() const { return core(); }  // NOLINT: a spec is its core

  // Checks one scenario with the spec's options, or with `options`.
  CheckResult check(std::string_view scenario = "random") const {
    return check_spec(core(), scenario, core_->options);
  }
  CheckResult check(std::string_view scenario, CheckOptions options) const {
    return check_spec(core(), scenario, std::move(options));
  }

 private:
  template <class Gens>
  static constexpr bool rest_of_arguments() {
    constexpr std::size_t n = std::tuple_size_v<Gens>;
    if constexpr (n == 0) {
      return false;
    } else {
      return RestOfArguments<std::tuple_element_t<n - 1, Gens>>;
    }
  }
  template <class Args, std::size_t... I>
  static const void* element(const Args& args, int index,
                             std::index_sequence<I...>) {
    const void* out = nullptr;
    ((static_cast<int>(I) == index ? (out = &std::get<I>(args), 0) : 0), ...);
    return out;
  }
  template <std::size_t... I, class Args>
  static std::vector<const std::type_info*> types(std::index_sequence<I...>,
                                                  Args*) {
    return {&typeid(std::tuple_element_t<I, Args>)...};
  }
  template <class Gens, std::size_t... I>
  static std::optional<ErasedValue> parse_all(
      const Gens& gens, const std::vector<std::string>& texts,
      std::index_sequence<I...>) {
    auto parsed = std::make_tuple(std::get<I>(gens).parse(texts[I])...);
    if (!(std::get<I>(parsed).has_value() && ... && true)) return std::nullopt;
    using Args = typename spec_internal::ArgsOf<Gens>::type;
    return ErasedValue(std::make_shared<Args>(*std::get<I>(parsed)...));
  }
  template <class Args, std::size_t... I>
  static std::optional<ErasedValue> convert_all(
      Args*, const std::vector<std::any>& given, std::string* error,
      std::index_sequence<I...>) {
    auto converted = std::make_tuple(
        spec_internal::convert_arg<std::tuple_element_t<I, Args>>(given[I])...);
    bool ok = true;
    auto check = [&](auto index) {
      constexpr std::size_t kIndex = decltype(index)::value;
      if (ok && !std::get<kIndex>(converted)) {
        ok = false;
        *error = spec_internal::type_mismatch(
            static_cast<int>(kIndex),
            typeid(std::tuple_element_t<kIndex, Args>), given[kIndex]);
      }
    };
    (check(std::integral_constant<std::size_t, I>()), ...);
    if (!ok) return std::nullopt;
    return ErasedValue(std::make_shared<Args>(*std::get<I>(converted)...));
  }

  template <class R, class Args, class Fn, class... Items>
  void add_model_side(OperationDecl& d, Fn fn, const Items&... items) {
    if constexpr (spec_internal::CallableOn<Fn, Model, Args>::value) {
      d.step = [fn](void* model, const void* a, const void* result) mutable {
        spec_internal::ModelContext ctx;
        return spec_internal::invoke_for_result(fn, *static_cast<Model*>(model),
                                                ctx,
                                                *static_cast<const Args*>(a)) ==
               *static_cast<const R*>(result);
      };
    }
    (add_option<R, Args>(d, items), ...);
  }

  template <class R, class Args, class Item>
  static void add_option(OperationDecl& d, const Item& item) {
    if constexpr (spec_internal::IsMayFail<Item>::value) {
      d.no_effect = [value = R(item.value)](const void* result) {
        return *static_cast<const R*>(result) == value;
      };
    } else if constexpr (spec_internal::IsJudgedBy<Item>::value) {
      d.step = [judge = item.judge](void* model, const void* a,
                                    const void* result) mutable {
        return std::apply(
            [&](const auto&... v) {
              return static_cast<bool>(judge(*static_cast<Model*>(model), v...,
                                             *static_cast<const R*>(result)));
            },
            *static_cast<const Args*>(a));
      };
    }
  }

  std::shared_ptr<SpecCore> core_;
};

}  // namespace racelab

#endif  // RACELAB_SPEC_H_
