#include "ferry/exchange.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engines/agreed_setup.hpp"
#include "exchange/same_engine.hpp"
#include "exchange/same_fields.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry {

namespace {

// agree_on_fields, with the engine's name agreed in the same reduction: ranks running
// different engines would otherwise wait for each other's messages for ever. Returns
// the spread of `more`.
std::vector<detail::ValueSpread> agree_on_fields_and_engine(
    const Comm& comm, const std::optional<Error>& local, const std::vector<FieldSpec>& fields,
    detail::ExchangeRole role, const std::string& engine, std::vector<std::int64_t> more = {}) {
  more.insert(more.begin(), detail::engine_fingerprint(engine));
  std::vector<detail::ValueSpread> spread =
      detail::agree_on_fields(comm, local, fields, role, "Exchange", more);
  if (!spread[0].same()) detail::report_different_engines(comm, engine, spread[0], "Exchange");
  spread.erase(spread.begin());
  return spread;
}

}  // namespace

struct Exchange::State {
  std::shared_ptr<ExchangeShare> share;  // outlives the engine, which may use its resources
  Comm comm;
  std::shared_ptr<const Plan> plan;
  std::vector<FieldSpec> fields;
  std::string engine_name;
  std::unique_ptr<Engine> engine;
  double setup_seconds = 0;
  std::function<void()> plan_check;  // a given plan's check, during construction
  bool failed = false;
  bool in_flight = false;
  bool closed = false;
};

Exchange::Exchange(MPI_Comm comm, const Layout& src, const Layout& dst,
                   std::vector<FieldSpec> fields, const std::string& engine,
                   const EngineOptions& options)
    : state_(std::make_unique<State>()) {
  const double start = MPI_Wtime();
  const std::optional<Error> local = make_engine_for(comm, std::move(fields), engine);
  State& s = *state_;
  agree_on_fields_and_engine(s.comm, local, s.fields,
                             {src.local_size() > 0, dst.local_size() > 0}, s.engine_name);
  s.plan = std::make_shared<const Plan>(Plan::build(s.comm, src, dst));
  set_up_engine(options, start);
}

Exchange::Exchange(MPI_Comm comm, std::shared_ptr<const Plan> plan, std::vector<FieldSpec> fields,
                   const std::string& engine, const EngineOptions& options)
    : state_(std::make_unique<State>()) {
  set_up_over(comm, std::move(plan), std::move(fields), engine, options);
}

Exchange::Exchange(std::shared_ptr<ExchangeShare> share, std::shared_ptr<const Plan> plan,
                   std::vector<FieldSpec> fields, const std::string& engine,
                   const EngineOptions& options)
    : state_(std::make_unique<State>()) {
  FERRY_CHECK(share, Errc::Arg, "Exchange: no ExchangeShare given (null)");
  state_->share = std::move(share);
  set_up_over(MPI_COMM_NULL, std::move(plan), std::move(fields), engine, options);
}

void Exchange::set_up_over(MPI_Comm comm, std::shared_ptr<const Plan> plan,
                           std::vector<FieldSpec> fields, const std::string& engine,
                           const EngineOptions& options) {
  const double start = MPI_Wtime();
  State& s = *state_;
  // Agreed with the fields' checks: one collective round, not two.
  s.plan_check = [&] {
    FERRY_CHECK(plan && plan->comm_size() == s.comm.size() && plan->rank() == s.comm.rank(),
                Errc::Arg, "Exchange: the plan given was built on another communicator (rank ",
                plan ? plan->rank() : -1, " of ", plan ? plan->comm_size() : 0, ", here rank ",
                s.comm.rank(), " of ", s.comm.size(),
                "). Build it with Plan::build on the exchange's communicator");
  };
  const std::optional<Error> local = make_engine_for(comm, std::move(fields), engine);
  s.plan_check = nullptr;
  const bool source = plan && plan->src_local_size() > 0;
  const bool destination = plan && plan->dst_local_size() > 0;
  s.plan = std::move(plan);
  if (s.share) {
    set_up_over_share(local, source, destination, options, start);
    return;
  }
  agree_on_fields_and_engine(s.comm, local, s.fields, {source, destination}, s.engine_name);
  set_up_engine(options, start);
}

std::optional<Error> Exchange::make_engine_for(MPI_Comm comm, std::vector<FieldSpec> fields,
                                               const std::string& engine) {
  State& s = *state_;
  // Over a share, the agreement runs on the share's communicator: setups over a share
  // follow each other in the same order on every rank.
  s.comm = s.share ? Comm::view(s.share->comm().get()) : Comm::dup(comm);
  s.fields = std::move(fields);
  return detail::error_of(s.comm, [&] {
    s.engine_name = resolve_engine_name(engine);
    s.engine = make_engine(s.engine_name);
    FERRY_CHECK(!s.fields.empty(), Errc::Arg,
                "Exchange: no fields given. Describe at least one field (type and components)");
    if (s.plan_check) s.plan_check();
  });
}

void Exchange::set_up_over_share(std::optional<Error> local, bool source, bool destination,
                                 const EngineOptions& options, double start) {
  State& s = *state_;
  // An engine whose messages keep to a tag range shares the communicator; any other
  // (collectives must start in the same order on every rank, which exchanges of one
  // share in flight at once do not) gets its own duplicate, as without a share. Every
  // rank has an engine, or none (the same name everywhere), and takes a tag alike.
  std::optional<int> tag_base;
  if (s.engine) {
    if (s.engine->capabilities().tagged) tag_base = s.share->next_tag_base();
    s.engine->join(*s.share, tag_base.value_or(0));
  }
  // An engine whose set-up starts with an agreement (rma) makes it in the fields'
  // agreement: one collective round for both.
  auto* agreeing = tag_base ? dynamic_cast<detail::AgreedSetup*>(s.engine.get()) : nullptr;
  detail::AgreedValues values{detail::kAnyValue, detail::kAnyValue};
  if (agreeing && !local)
    local = detail::error_of(s.comm, [&] {
      values = agreeing->prepare(*s.plan, s.comm, s.fields, options);
      options.check_all_read(s.engine_name);
    });
  const std::vector<detail::ValueSpread> agreed = agree_on_fields_and_engine(
      s.comm, local, s.fields, {source, destination}, s.engine_name, {values[0], values[1]});
  if (!tag_base) s.comm = Comm::dup(s.share->comm().get());
  if (!agreeing) {
    set_up_engine(options, start);
    return;
  }
  const std::optional<Error> late =
      detail::error_of(s.comm, [&] { agreeing->finish({agreed[0], agreed[1]}); });
  if (s.share->late_setup_errors() == LateSetupErrors::AgreedByExchange)
    detail::agree(s.comm, late);
  else if (late)
    throw *late;
  s.setup_seconds = MPI_Wtime() - start;
}

void Exchange::set_up_engine(const EngineOptions& options, double start) {
  State& s = *state_;
  detail::agree_on(s.comm, [&] {
    s.engine->setup(*s.plan, s.comm, s.fields, options);
    options.check_all_read(s.engine_name);
  });
  s.setup_seconds = MPI_Wtime() - start;
}

Exchange::~Exchange() = default;
Exchange::Exchange(Exchange&&) noexcept = default;
Exchange& Exchange::operator=(Exchange&&) noexcept = default;

namespace {

// The state of an exchange for `call`, which needs an exchange in flight (started by
// begin()) or none. Errc::State if the object was moved from, failed, or is in the
// other case.
template <class State>
State& usable(const std::unique_ptr<State>& state, const char* call, bool in_flight) {
  FERRY_CHECK(state, Errc::State, "Exchange::", call, ": the exchange was moved from");
  FERRY_CHECK(!state->closed, Errc::State, "Exchange::", call,
              ": the exchange was closed; make a new one");
  FERRY_CHECK(!state->failed, Errc::State, "Exchange::", call,
              ": an earlier exchange failed; this object can only be destroyed");
  FERRY_CHECK(state->in_flight == in_flight, Errc::State, "Exchange::", call,
              in_flight ? ": no exchange in flight; call begin() first"
                        : ": the previous begin() has not been completed by end()");
  return *state;
}

// Runs `call` on the engine; if it throws, the exchange stays failed, so that every
// later call says so instead of touching an engine in an unknown state.
template <class State, class Call>
auto failing_on_throw(State& state, Call call) -> decltype(call()) {
  try {
    return call();
  } catch (...) {
    state.failed = true;
    throw;
  }
}

}  // namespace

void Exchange::close() {
  FERRY_CHECK(state_, Errc::State, "Exchange::close: the exchange was moved from");
  State& s = *state_;
  if (s.closed) return;
  FERRY_CHECK(!s.in_flight, Errc::State,
              "Exchange::close: the previous begin() has not been completed by end()");
  s.closed = true;
  if (!s.failed) s.engine->close();
}

void Exchange::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  State& s = usable(state_, "begin", false);
  failing_on_throw(s, [&] { s.engine->begin(src, dst, mask); });
  s.in_flight = true;
}

void Exchange::execute(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  State& s = usable(state_, "execute", false);
  failing_on_throw(s, [&] { s.engine->execute(src, dst, mask); });
}

void Exchange::end() {
  State& s = usable(state_, "end", true);
  s.in_flight = false;
  failing_on_throw(s, [&] { s.engine->end(); });
}

bool Exchange::test() {
  State& s = usable(state_, "test", true);
  return failing_on_throw(s, [&] { return s.engine->test(); });
}

bool Exchange::can_begin() {
  State& s = usable(state_, "can_begin", false);
  return failing_on_throw(s, [&] { return s.engine->can_begin(); });
}

void Exchange::stage(std::size_t field, const void* src) {
  usable(state_, "stage", false).engine->stage(field, src);
}

void Exchange::take(std::size_t field, void* dst) const {
  usable(state_, "take", false).engine->take(field, dst);
}

void* Exchange::destination_field(std::size_t field) {
  State& state = usable(state_, "destination_field", false);
  FERRY_CHECK(field < state.fields.size(), Errc::ArgRange, "destination_field: field ", field,
              " out of range; the exchange has ", state.fields.size(), " fields");
  return state.engine->destination_field(field);
}

Capabilities Exchange::capabilities() const { return state_->engine->capabilities(); }
const Plan& Exchange::plan() const noexcept { return *state_->plan; }
const std::vector<FieldSpec>& Exchange::fields() const noexcept { return state_->fields; }
const std::string& Exchange::engine_name() const noexcept { return state_->engine_name; }
Traffic Exchange::traffic() const { return state_->engine->traffic(); }
EngineReport Exchange::engine_report() const { return state_->engine->report(); }
double Exchange::setup_seconds() const noexcept { return state_->setup_seconds; }
MPI_Comm Exchange::comm() const noexcept { return state_->comm.get(); }

}  // namespace ferry
