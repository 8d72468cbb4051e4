// The engine's side of declared specs (racelab/spec.h): one family that runs
// any spec type-erased, its sequential model, the random and hand-written
// programs, and the kit's checks. The kit's templates are instantiated here
// once, not in every adapter file.
#include "racelab/spec.h"

#include <cxxabi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "racelab/fuzz_target.h"
#include "racelab/internal/family.h"
#include "racelab/internal/fuzz_report.h"
#include "racelab/internal/input_error.h"
#include "racelab/internal/op_text.h"
#include "racelab/internal/sanitizer_capture.h"
#include "racelab/internal/sched/scheduler.h"

namespace racelab {

namespace show_internal {

std::string escape_argument(std::string_view text) {
  if (is_plain_argument(text) && text.find('%') == std::string_view::npos)
    return std::string(text);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = text.empty() ? "%" : "";  // "%" alone: the empty string
  for (unsigned char c : text) {
    const bool plain = c > 0x20 && c < 0x7f && c != ',' && c != '(' &&
                       c != ')' && c != ';' && c != '%';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::optional<std::string> unescape_argument(std::string_view text) {
  if (text == "%") return std::string();
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = hex(text[i + 1]), lo = hex(text[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

}  // namespace show_internal

namespace {

std::string type_name(const std::type_info& type) {
  int status = 0;
  char* readable = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
  std::string out = status == 0 && readable ? readable : type.name();
  std::free(readable);
  if (type == typeid(std::string)) return "std::string";
  return out;
}

}  // namespace

namespace spec_internal {

std::string type_mismatch(int index, const std::type_info& want,
                          const std::any& have) {
  return absl::StrCat("argument ", index + 1, ": got ", type_name(have.type()),
                      ", expected ", type_name(want));
}

}  // namespace spec_internal

void CallView::check_type(const std::type_info& have,
                          const std::type_info& want) const {
  if (have != want) {
    throw std::invalid_argument(absl::StrCat(decl_->name, ": asked for a ",
                                             type_name(want), ", it has a ",
                                             type_name(have)));
  }
}

namespace {

// ---------------------------------------------------------------------------
// The family every spec runs as.

struct DeclaredStore {
  std::shared_ptr<void> object;
};

// The spec whose programs are being read back (DeclaredFamily::parse is
// static, as the engine's families are): set for the length of a check.
thread_local const SpecCore* t_parsing = nullptr;

class ParsingScope {
 public:
  explicit ParsingScope(const SpecCore* spec) : saved_(t_parsing) {
    t_parsing = spec;
  }
  ~ParsingScope() { t_parsing = saved_; }
  ParsingScope(const ParsingScope&) = delete;
  ParsingScope& operator=(const ParsingScope&) = delete;

 private:
  const SpecCore* saved_;
};

std::string describe_call(const DeclaredCall& call) {
  const OperationDecl& d = call.spec->ops[static_cast<std::size_t>(call.op)];
  return absl::StrCat(d.name, "(", d.show_args(call.args.get()), ")");
}

std::string describe_value(const DeclaredCall& call,
                           const DeclaredValue& value) {
  if (!value.value) return "?";
  return call.spec->ops[static_cast<std::size_t>(call.op)].show_result(
      value.value.get());
}

// The sequential specification: a state is the chain of calls that led to
// it (with their results), and, for a copyable model, the model object after
// them. A non-copyable model (the store class itself, with its mutex) is
// rebuilt by replaying the chain; the object the last step left behind is
// kept for the next step from there, the common case of the depth-first
// search.
struct ModelNode {
  std::shared_ptr<const ModelNode> parent;
  const SpecCore* spec = nullptr;
  DeclaredCall call;
  DeclaredValue result;
  bool applied = true;
  std::size_t hash = 0;
  std::uint64_t serial = 0;      // non-copyable models only
  std::shared_ptr<void> object;  // copyable models only
};

bool object_states(const SpecCore& spec) {
  return spec.copy_model && spec.equal_models && spec.hash_model;
}

// A state that is its model object alone (copied, compared, hashed and shown
// as an object) keeps no chain of the calls that led to it.
bool chainless_states(const SpecCore& spec) {
  return object_states(spec) && spec.show_model;
}

std::shared_ptr<void> fresh_model(const SpecCore& spec) {
  return spec.make_model ? spec.make_model() : spec.make_store();
}

// The object left by the last successful step of a non-copyable model.
thread_local std::uint64_t t_cached_serial = 0;
thread_local std::shared_ptr<void> t_cached_object;
std::atomic<std::uint64_t> g_next_serial{1};

std::uint64_t mix(std::uint64_t x) { return linearizability_internal::mix(x); }

struct ModelState {
  std::shared_ptr<const ModelNode> node;  // null: the initial state

  bool operator==(const ModelState& other) const {
    if (node == other.node) return true;
    if (!node || !other.node) return false;
    if (node->hash != other.hash()) return false;
    if (object_states(*node->spec)) {
      return node->spec->equal_models(node->object.get(),
                                      other.node->object.get());
    }
    const ModelNode* a = node.get();
    const ModelNode* b = other.node.get();
    while (a != nullptr && b != nullptr) {
      if (a == b) return true;
      if (a->call.op != b->call.op || a->call.args != b->call.args ||
          a->result.value != b->result.value || a->applied != b->applied) {
        return false;
      }
      a = a->parent.get();
      b = b->parent.get();
    }
    return a == b;
  }
  std::size_t hash() const { return node ? node->hash : 0; }
};

// A model object in `state`, to be stepped (a copy, a cached object, or a
// replay of the chain).
std::shared_ptr<void> materialize(const ModelState& state,
                                  const SpecCore& spec) {
  if (!state.node) return fresh_model(spec);
  if (spec.copy_model) return spec.copy_model(state.node->object.get());
  if (t_cached_object && t_cached_serial == state.node->serial) {
    t_cached_serial = 0;
    return std::move(t_cached_object);
  }
  std::vector<const ModelNode*> chain;
  for (const ModelNode* n = state.node.get(); n; n = n->parent.get())
    chain.push_back(n);
  std::shared_ptr<void> model = fresh_model(spec);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const ModelNode& n = **it;
    if (!n.applied) continue;
    spec.ops[static_cast<std::size_t>(n.call.op)].step(
        model.get(), n.call.args.get(), n.result.value.get());
  }
  return model;
}

struct DeclaredModel {
  using State = ModelState;
  using Input = DeclaredCall;
  using Output = DeclaredValue;
  static constexpr const char* kObjectName = "model";

  static std::size_t hash(const State& s) { return s.hash(); }
  static bool step(const State& s, const Input& in, const Output& out,
                   State* next) {
    const SpecCore& spec = *in.spec;
    const OperationDecl& d = spec.ops[static_cast<std::size_t>(in.op)];
    std::shared_ptr<void> model = materialize(s, spec);
    auto node = std::make_shared<ModelNode>();
    node->spec = &spec;
    if (!chainless_states(spec)) {
      node->parent = s.node;
      node->call = in;
      node->result = out;
    }
    if (!spec.copy_model) {
      node->serial = g_next_serial.fetch_add(1, std::memory_order_relaxed);
    }
    if (d.step(model.get(), in.args.get(), out.value.get())) {
      node->applied = true;
    } else if (d.no_effect && d.no_effect(out.value.get())) {
      node->applied = false;
      model.reset();  // stepped: no longer the state `s`
      if (spec.copy_model) node->object = s.node ? s.node->object : nullptr;
      if (spec.copy_model && !node->object) node->object = fresh_model(spec);
    } else {
      return false;
    }
    if (node->applied) {
      if (spec.copy_model) {
        node->object = std::move(model);
      } else {
        t_cached_serial = node->serial;
        t_cached_object = std::move(model);
      }
    }
    if (object_states(spec)) {
      node->hash = spec.hash_model(node->object.get());
    } else {
      node->hash =
          mix((s.hash() * 31) ^ static_cast<std::uint64_t>(in.op) ^
              reinterpret_cast<std::uintptr_t>(in.args.get()) ^
              (reinterpret_cast<std::uintptr_t>(out.value.get()) << 1) ^
              static_cast<std::uint64_t>(node->applied));
    }
    next->node = std::move(node);
    return true;
  }
  // The first guess checked on one model object, stepped in place: no copy,
  // no chain node and no hash per operation. A result allowed without effect
  // (may_fail_with) ends it, as step() may have changed the object before
  // refusing; the search then decides.
  static std::size_t fitting_prefix(
      const State& initial, std::span<const Operation<DeclaredModel>> history,
      std::span<const std::size_t> order) {
    if (order.empty()) return 0;
    const SpecCore& spec = *history[order.front()].input.spec;
    std::shared_ptr<void> model = materialize(initial, spec);
    std::size_t fitted = 0;
    for (std::size_t index : order) {
      const Operation<DeclaredModel>& op = history[index];
      const OperationDecl& d = spec.ops[static_cast<std::size_t>(op.input.op)];
      if (!d.step(model.get(), op.input.args.get(), op.output.value.get())) {
        break;
      }
      ++fitted;
    }
    return fitted;
  }
  static std::string describe(const Input& in) { return describe_call(in); }
  static std::string describe(const Input& in, const Output& out) {
    return describe_call(in) + " -> " + describe_value(in, out);
  }
  static std::string describe(const State& s) {
    if (!s.node) return "{initial}";
    const SpecCore& spec = *s.node->spec;
    if (spec.show_model) {
      if (spec.copy_model) return spec.show_model(s.node->object.get());
      return spec.show_model(materialize(s, spec).get());
    }
    std::vector<std::string> calls;
    for (const ModelNode* n = s.node.get(); n; n = n->parent.get()) {
      if (n->applied) calls.push_back(describe_call(n->call));
    }
    std::string out = "{after";
    for (auto it = calls.rbegin(); it != calls.rend(); ++it) {
      absl::StrAppend(&out, it == calls.rbegin() ? " " : ", ", *it);
    }
    return out + "}";
  }
};
static_assert(SequentialModel<DeclaredModel>);

DeclaredCall resolve(const SpecCore& spec, const std::string& scenario,
                     const PlannedCall& planned);

// The context a declared operation runs with: the engine's, and its nested
// calls recorded into the engine's list.
class EngineCallContext final : public CallContext {
 public:
  EngineCallContext(OpContext& engine, const SpecCore& spec,
                    DeclaredStore& store,
                    History<DeclaredCall, DeclaredValue>* nested)
      : engine_(engine), spec_(spec), store_(store), nested_(nested) {
    carried_id = engine.carried_id;
  }
  ~EngineCallContext() override { engine_.carried_id = carried_id; }
  EngineCallContext(const EngineCallContext&) = delete;
  EngineCallContext& operator=(const EngineCallContext&) = delete;

  int thread() const override { return engine_.thread(); }
  void pause() override { engine_.pause(); }
  std::uint64_t now(Tick tick) override { return engine_.now(tick); }
  void run_nested(const PlannedCall& planned) override {
    DeclaredCall call = resolve(spec_, "a nested call", planned);
    // Moved, not copied: a copy's shared_ptr count would be an atomic, and
    // so a scheduling point the operation does not have.
    Event<DeclaredCall, DeclaredValue> e{
        thread(), true, std::move(call), {}, now(Tick::kCall), 0};
    e.result.value = spec_.ops[static_cast<std::size_t>(e.op.op)].run(
        store_.object.get(), e.op.args.get(), *this);
    e.ret = now(Tick::kReturn);
    if (nested_ != nullptr) nested_->push_back(std::move(e));
  }

 private:
  OpContext& engine_;
  const SpecCore& spec_;
  DeclaredStore& store_;
  History<DeclaredCall, DeclaredValue>* nested_;
};

struct DeclaredFamily {
  using Store = DeclaredStore;
  using Op = DeclaredCall;
  using Result = DeclaredValue;
  static constexpr const char* kName = "declared";

  static Result execute(Store& store, const Op& op, OpContext& ctx,
                        History<Op, Result>* nested) {
    EngineCallContext call_ctx(ctx, *op.spec, store, nested);
    return {op.spec->ops[static_cast<std::size_t>(op.op)].run(
        store.object.get(), op.args.get(), call_ctx)};
  }
  static std::string describe(const Op& op) { return describe_call(op); }
  static std::string describe(const Op& op, const Result& result) {
    return describe_value(op, result);
  }
  static std::optional<Op> parse(std::string_view text) {
    const SpecCore* spec = t_parsing;
    if (spec == nullptr) return std::nullopt;
    std::optional<OpText> t = parse_op_text(text);
    if (!t) return std::nullopt;
    for (std::size_t i = 0; i < spec->ops.size(); ++i) {
      const OperationDecl& d = spec->ops[i];
      if (d.name != t->name) continue;
      std::optional<ErasedValue> args = d.parse_args(t->args);
      if (!args) return std::nullopt;
      return Op{spec, static_cast<int>(i), std::move(*args)};
    }
    return std::nullopt;
  }
  static void check_linearizability(const History<Op, Result>& history,
                                    std::vector<Finding>& findings) {
    if (history.empty()) return;
    const SpecCore& spec = *history.front().op.spec;
    if (spec.partition_argument < 0) {
      kit_internal::check_one_history<DeclaredModel>(history, "", findings);
      return;
    }
    std::map<std::string, std::vector<const Event<Op, Result>*>> parts;
    for (const auto& e : history) {
      const OperationDecl& d = spec.ops[static_cast<std::size_t>(e.op.op)];
      parts[d.show_arg(e.op.args.get(), spec.partition_argument)].push_back(&e);
    }
    for (const auto& [key, part] : parts) {
      kit_internal::check_one_history<DeclaredModel>(
          part, absl::StrCat(spec.partition_name, " '", key, "': "), findings);
    }
  }
};
static_assert(Family<DeclaredFamily>);

// ---------------------------------------------------------------------------
// Programs.

class SeededChoices final : public Choices {
 public:
  explicit SeededChoices(std::uint64_t seed) : rng_(seed) {}
  int below(int bound) override {
    return std::uniform_int_distribution<int>(0, bound - 1)(rng_);
  }

 private:
  std::mt19937_64 rng_;
};

DeclaredCall random_call(const SpecCore& spec, Choices& choices) {
  const int op = choices.below(static_cast<int>(spec.ops.size()));
  return {&spec, op, spec.ops[static_cast<std::size_t>(op)].generate(choices)};
}

std::vector<DeclaredCall> random_calls(const SpecCore& spec, Choices& choices,
                                       int n) {
  std::vector<DeclaredCall> calls;
  for (int i = 0; i < n; ++i) calls.push_back(random_call(spec, choices));
  return calls;
}

Program<DeclaredCall> random_program(const SpecCore& spec, std::uint64_t seed,
                                     ProgramSize size) {
  SeededChoices choices(seed);
  Program<DeclaredCall> p;
  p.setup = random_calls(spec, choices, spec.setup_operations);
  const int n =
      size == ProgramSize::kFull ? spec.full_operations : spec.small_operations;
  for (int t = 0; t < spec.threads; ++t)
    p.threads.push_back(random_calls(spec, choices, n));
  p.finale = random_calls(spec, choices, spec.finale_operations);
  return p;
}

DeclaredCall resolve(const SpecCore& spec, const std::string& scenario,
                     const PlannedCall& planned) {
  for (std::size_t i = 0; i < spec.ops.size(); ++i) {
    const OperationDecl& d = spec.ops[i];
    if (d.name != planned.name) continue;
    std::string error;
    std::optional<ErasedValue> args = d.make_args(planned.args, &error);
    if (!args) {
      throw InputError(absl::StrCat("spec '", spec.name, "', scenario '",
                                    scenario, "': ", planned.name, ": ",
                                    error));
    }
    return {&spec, static_cast<int>(i), std::move(*args)};
  }
  throw InputError(absl::StrCat("spec '", spec.name, "', scenario '", scenario,
                                "': '", planned.name,
                                "' is not one of its operations"));
}

Program<DeclaredCall> resolve_plan(const SpecCore& spec,
                                   const std::string& scenario,
                                   const Plan& plan) {
  auto resolve_all = [&](const std::vector<PlannedCall>& calls) {
    std::vector<DeclaredCall> out;
    for (const PlannedCall& c : calls)
      out.push_back(resolve(spec, scenario, c));
    return out;
  };
  Program<DeclaredCall> p;
  p.setup = resolve_all(plan.setup);
  for (const auto& thread : plan.threads)
    p.threads.push_back(resolve_all(thread));
  p.finale = resolve_all(plan.finale);
  return p;
}

Program<DeclaredCall> planned_program(const SpecCore& spec,
                                      const ScenarioDecl& s, std::uint64_t seed,
                                      ProgramSize size) {
  return resolve_plan(spec, s.name, s.plan(seed, size));
}

void check_invariants(const SpecCore& spec,
                      const History<DeclaredCall, DeclaredValue>& history,
                      DeclaredStore& store, std::vector<Finding>& findings) {
  Calls calls;
  calls.reserve(history.size());
  for (const auto& e : history) {
    calls.emplace_back(&spec.ops[static_cast<std::size_t>(e.op.op)], &e.op,
                       &e.result, e.thread, e.nested);
  }
  for (const InvariantDecl& inv : spec.invariants) {
    std::optional<sched::HarnessScope> unwatched;
    if (inv.calls_only) unwatched.emplace();
    std::string broken = inv.check(calls, store.object.get());
    unwatched.reset();
    if (!broken.empty()) {
      findings.push_back(invariant_violation(inv.name + ": " + broken));
    }
  }
}

// Every way a spec can be unusable, as one line naming it.
void validate(const SpecCore& spec) {
  auto fail = [&](const std::string& what) {
    throw InputError(absl::StrCat("spec '", spec.name, "': ", what));
  };
  if (spec.ops.empty()) fail("no operations declared (.op(...))");
  if (!spec.make_store) {
    fail(
        "no store factory: the store type is abstract or has no default "
        "constructor; give one with .make(...)");
  }
  if (spec.threads < 1 || spec.small_operations < 0 ||
      spec.full_operations < 0 || spec.setup_operations < 0 ||
      spec.finale_operations < 0) {
    fail(
        "threads must be at least 1, and operations, setup and finale calls "
        "at least 0");
  }
  if (!spec.random_scenario && spec.scenarios.empty())
    fail("no scenario: the random one is left out and none is declared");
  for (const OperationDecl& d : spec.ops) {
    if (!d.step) {
      fail("operation '" + d.name +
           "' has no sequential specification: the model class has no such "
           "call (declare it with a generic lambda) and no judged_by was "
           "given");
    }
    if (spec.partition_argument >= d.arity) {
      fail(absl::StrCat("partition_by_argument(", spec.partition_argument,
                        "): operation '", d.name, "' has ", d.arity,
                        " arguments"));
    }
  }
}

std::vector<Scenario<DeclaredFamily>> scenarios_of(const SpecRef& spec) {
  std::vector<Scenario<DeclaredFamily>> out;
  auto check = [spec](const Program<DeclaredCall>&,
                      const History<DeclaredCall, DeclaredValue>& history,
                      DeclaredStore& store, std::vector<Finding>& findings) {
    check_invariants(*spec, history, store, findings);
  };
  auto add = [&](Scenario<DeclaredFamily> s) {
    if (!spec->invariants.empty()) s.check = check;
    out.push_back(std::move(s));
  };
  if (spec->random_scenario) {
    Scenario<DeclaredFamily> s;
    s.name = "random";
    s.description = absl::StrCat(spec->threads, " threads of random calls");
    s.program = [spec](std::uint64_t seed, ProgramSize size) {
      return random_program(*spec, seed, size);
    };
    add(std::move(s));
  }
  for (std::size_t i = 0; i < spec->scenarios.size(); ++i) {
    const ScenarioDecl& d = spec->scenarios[i];
    Scenario<DeclaredFamily> s;
    s.name = d.name;
    s.description = d.description;
    s.modes = d.modes;
    s.program = [spec, i](std::uint64_t seed, ProgramSize size) {
      return planned_program(*spec, spec->scenarios[i], seed, size);
    };
    s.seeded = d.seeded;
    add(std::move(s));
  }
  return out;
}

StoreFactory<DeclaredFamily> factory_of(const SpecRef& spec) {
  return [spec] {
    auto store = std::make_unique<DeclaredStore>();
    store->object = spec->make_store();
    return store;
  };
}

const Scenario<DeclaredFamily>& find_scenario(
    const SpecRef& spec, const std::vector<Scenario<DeclaredFamily>>& all,
    std::string_view name) {
  for (const auto& s : all) {
    if (s.name == name) return s;
  }
  std::string names;
  for (const auto& s : all)
    absl::StrAppend(&names, names.empty() ? "" : ", ", s.name);
  throw InputError(absl::StrCat("spec '", spec->name, "' has no scenario '",
                                std::string(name), "' (it has ", names, ")"));
}

CheckOptions named(const SpecRef& spec, CheckOptions options) {
  if (options.store_name.empty()) options.store_name = spec->name;
  return options;
}

}  // namespace

std::vector<std::string> spec_scenario_names(const SpecRef& spec) {
  std::vector<std::string> names;
  if (spec->random_scenario) names.push_back("random");
  for (const ScenarioDecl& s : spec->scenarios) names.push_back(s.name);
  return names;
}

CheckResult check_spec(const SpecRef& spec, std::string_view scenario,
                       CheckOptions options) {
  validate(*spec);
  ParsingScope parsing(spec.get());
  const auto all = scenarios_of(spec);
  return check_store<DeclaredFamily>(factory_of(spec),
                                     find_scenario(spec, all, scenario),
                                     named(spec, std::move(options)));
}

CheckResult replay_spec(const SpecRef& spec, std::string_view scenario,
                        const std::string& schedule_file,
                        CheckOptions options) {
  validate(*spec);
  ParsingScope parsing(spec.get());
  const auto all = scenarios_of(spec);
  return replay_store<DeclaredFamily>(
      factory_of(spec), find_scenario(spec, all, scenario), schedule_file,
      named(spec, std::move(options)));
}

namespace {

// Every hand-written program reads as the spec's calls (its first seed's, in
// both sizes): a wrong call is one error before any test runs, not one per
// test that runs the scenario.
void validate_plans(const SpecCore& spec) {
  for (const ScenarioDecl& s : spec.scenarios) {
    for (ProgramSize size : {ProgramSize::kSmall, ProgramSize::kFull}) {
      resolve_plan(spec, s.name, s.plan(spec.options.seed, size));
    }
  }
}

}  // namespace

std::vector<KitCase> spec_cases(const SpecRef& spec, bool per_oracle,
                                std::vector<Mode> only_modes) {
  validate(*spec);
  validate_plans(*spec);
  std::vector<KitCase> cases;
  const auto all = scenarios_of(spec);
  const OracleSet selected = spec->options.oracles;
  for (int i = 0; i < static_cast<int>(all.size()); ++i) {
    for (Mode mode : all[static_cast<std::size_t>(i)].modes) {
      if (!only_modes.empty() && std::find(only_modes.begin(), only_modes.end(),
                                           mode) == only_modes.end()) {
        continue;
      }
      const std::string& name = all[static_cast<std::size_t>(i)].name;
      if (!per_oracle) {
        cases.push_back({i, name, mode, std::nullopt});
        continue;
      }
      for (Oracle oracle :
           {Oracle::kTsan, Oracle::kInvariants, Oracle::kLinearizability}) {
        if (!selected.contains(oracle)) continue;
        // No invariants declared: that oracle would judge nothing.
        if (oracle == Oracle::kInvariants && spec->invariants.empty()) continue;
        cases.push_back({i, name, mode, oracle});
      }
    }
  }
  return cases;
}

std::vector<SpecScenarioInfo> spec_scenarios(const SpecRef& spec) {
  validate(*spec);
  std::vector<SpecScenarioInfo> out;
  for (const auto& s : scenarios_of(spec))
    out.push_back({s.name, s.description, s.modes, s.seeded});
  return out;
}

std::function<RunObservation(const RunRequest&)> spec_case_runner(
    const SpecRef& spec, std::string_view scenario) {
  validate(*spec);
  auto all = std::make_shared<const std::vector<Scenario<DeclaredFamily>>>(
      scenarios_of(spec));
  const Scenario<DeclaredFamily>* chosen = &find_scenario(spec, *all, scenario);
  StoreFactory<DeclaredFamily> factory = factory_of(spec);
  return [spec, all, chosen, factory](const RunRequest& request) {
    ParsingScope parsing(spec.get());
    if (request.mode == Mode::kControlled) {
      return run_controlled<DeclaredFamily>(*chosen, factory, request,
                                            take_tsan_findings);
    }
    return run_stress<DeclaredFamily>(*chosen, factory, request);
  };
}

std::function<std::string(std::string_view line)> spec_program_line_checker(
    const SpecRef& spec) {
  return [spec](std::string_view line) -> std::string {
    ParsingScope parsing(spec.get());
    for (const std::string& text : split_program_line(line)) {
      if (!DeclaredFamily::parse(text))
        return absl::StrCat("'", text, "' is not a ", spec->name, " operation");
    }
    return "";
  };
}

namespace gtest_internal {

std::vector<KitCase> spec_cases_or_exit(const SpecRef& spec, bool per_oracle,
                                        std::vector<Mode> only_modes) {
  try {
    return spec_cases(spec, per_oracle, std::move(only_modes));
  } catch (const InputError& e) {
    std::fprintf(stderr, "racelab: %s\n", e.what());
    std::exit(2);
  }
}

}  // namespace gtest_internal

CheckResult run_spec_case(const SpecRef& spec, const KitCase& c) {
  CheckOptions options = spec->options;
  options.mode = c.mode;
  if (c.oracle) options.oracles = OracleSet{*c.oracle};
  return check_spec(spec, c.scenario_name, std::move(options));
}

CheckResult check_spec_caught(const SpecRef& spec) {
  std::vector<std::string> caught, missed;
  std::vector<CheckResult> results;
  for (const KitCase& c :
       spec_cases(spec, /*per_oracle=*/false, {Mode::kControlled})) {
    CheckResult r = run_spec_case(spec, c);
    (r.clean() ? missed : caught).push_back(c.scenario_name);
    results.push_back(std::move(r));
  }
  auto list = [](const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
      absl::StrAppend(&out, out.empty() ? "" : ", ", n);
    return out;
  };
  const std::string store =
      spec->options.store_name.empty() ? spec->name : spec->options.store_name;
  CheckResult verdict;
  std::string message;
  if (caught.empty()) {
    absl::StrAppend(&message, store, ": no scenario caught the bug (",
                    list(missed), ")\n");
    for (const CheckResult& r : results) absl::StrAppend(&message, r.message);
    if (!results.empty()) verdict = std::move(results.front());
  } else {
    absl::StrAppend(&message, store, ": caught by ", caught.size(), " of ",
                    results.size(), " scenarios (", list(caught), ")");
    if (!missed.empty()) absl::StrAppend(&message, "; not by ", list(missed));
    message += "\n";
    bool first = true;
    for (CheckResult& r : results) {
      if (r.clean()) continue;
      absl::StrAppend(&message, r.message);
      if (first) verdict = std::move(r);
      first = false;
    }
  }
  verdict.message = std::move(message);
  return verdict;
}

namespace {

class BytesChoices final : public Choices {
 public:
  explicit BytesChoices(FuzzBytes& bytes) : bytes_(bytes) {}
  int below(int bound) override { return bytes_.below(bound); }

 private:
  FuzzBytes& bytes_;
};

// Scheduling decisions from the remaining bytes.
class BytesStrategy final : public sched::Strategy {
 public:
  explicit BytesStrategy(FuzzBytes& bytes) : bytes_(bytes) {}
  std::string_view name() const override { return "fuzz"; }
  void begin_schedule(int) override {}
  int pick(const std::vector<int>& enabled, int current) override {
    if (bytes_.empty()) return sched::fallback_choice(enabled, current);
    return enabled[bytes_.below(static_cast<int>(enabled.size()))];
  }
  bool end_schedule() override { return false; }

 private:
  FuzzBytes& bytes_;
};

}  // namespace

int fuzz_spec_input(const SpecRef& spec, const std::uint8_t* data,
                    std::size_t size) {
  static const bool coverage_tolerated =
      (fuzz_internal::tolerate_coverage_writes(), true);
  (void)coverage_tolerated;
  validate(*spec);
  ParsingScope parsing(spec.get());
  FuzzBytes bytes(data, size);
  BytesChoices choices(bytes);
  Program<DeclaredCall> program;
  program.setup = random_calls(*spec, choices, spec->setup_operations);
  const int threads = 2 + bytes.below(3);
  for (int t = 0; t < threads; ++t)
    program.threads.push_back(random_calls(*spec, choices, 1 + bytes.below(4)));
  program.finale = random_calls(*spec, choices, spec->finale_operations);

  Scenario<DeclaredFamily> scenario;
  scenario.name = "fuzz";
  scenario.program = [&program](std::uint64_t, ProgramSize) { return program; };
  OracleSet oracles = spec->options.oracles;
  if (!spec->invariants.empty()) {
    scenario.check = [spec](const Program<DeclaredCall>&,
                            const History<DeclaredCall, DeclaredValue>& h,
                            DeclaredStore& store, std::vector<Finding>& f) {
      check_invariants(*spec, h, store, f);
    };
  }
  static sched::ControlledScheduler* scheduler = new sched::ControlledScheduler;
  BytesStrategy strategy(bytes);
  strategy.set_records_trace(false);  // with_trace replays a failing input
  const StoreFactory<DeclaredFamily> factory = factory_of(spec);
  RunObservation run =
      with_trace(kit_internal::one_schedule<DeclaredFamily>(
                     scenario, factory, program, oracles, *scheduler, strategy),
                 [&](sched::Strategy& replay) {
                   return kit_internal::one_schedule<DeclaredFamily>(
                       scenario, factory, program, oracles, *scheduler, replay);
                 });
  if (run.findings.empty()) return 0;
  run.schedule.program = encode_program<DeclaredFamily>(program);
  return finish_fuzz_input(spec->name, run, "");
}

std::vector<Finding> check_spec_linearizability(
    const History<DeclaredCall, DeclaredValue>& history) {
  std::vector<Finding> findings;
  DeclaredFamily::check_linearizability(history, findings);
  return findings;
}

RunObservation run_spec_plan(const SpecRef& spec, const Plan& plan,
                             OracleSet oracles,
                             sched::ControlledScheduler& scheduler,
                             sched::Strategy& strategy, bool describe_always) {
  validate(*spec);
  ParsingScope parsing(spec.get());
  // The plan's calls are harness data: made and freed where TSan does not
  // watch.
  auto held = sched::unwatched([&] {
    return std::make_unique<const Program<DeclaredCall>>(
        resolve_plan(*spec, "a plan", plan));
  });
  const Program<DeclaredCall>& program = *held;
  Scenario<DeclaredFamily> scenario;
  scenario.name = "plan";
  scenario.program = [&program](std::uint64_t, ProgramSize) { return program; };
  if (!spec->invariants.empty()) {
    scenario.check = [spec](const Program<DeclaredCall>&,
                            const History<DeclaredCall, DeclaredValue>& h,
                            DeclaredStore& store, std::vector<Finding>& f) {
      check_invariants(*spec, h, store, f);
    };
  }
  const StoreFactory<DeclaredFamily> factory = factory_of(spec);
  auto run_once = [&](sched::Strategy& s) {
    return run_schedule<DeclaredFamily>(scenario, factory, program, oracles,
                                        scheduler, s, take_tsan_findings);
  };
  RunObservation run = with_trace(run_once(strategy), run_once);
  sched::HarnessScope harness;
  if (!run.findings.empty() || describe_always)
    run.schedule.program = encode_program<DeclaredFamily>(program);
  held.reset();
  return run;
}

std::vector<std::string> spec_program_text(const SpecRef& spec,
                                           const Plan& plan) {
  return encode_program<DeclaredFamily>(resolve_plan(*spec, "a plan", plan));
}

std::vector<std::string> reread_spec_program(
    const SpecRef& spec, const std::vector<std::string>& lines) {
  ParsingScope parsing(spec.get());
  return encode_program<DeclaredFamily>(decode_program<DeclaredFamily>(lines));
}

std::optional<std::string> reread_spec_operation(const SpecRef& spec,
                                                 std::string_view text) {
  ParsingScope parsing(spec.get());
  std::optional<DeclaredCall> call = DeclaredFamily::parse(text);
  if (!call) return std::nullopt;
  return describe_call(*call);
}

}  // namespace racelab
