#include "ferry/exchange.hpp"

#include <utility>

#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry {

struct Exchange::State {
  Comm comm;
  Plan plan;
  std::vector<FieldSpec> fields;
  std::string engine_name;
  std::unique_ptr<Engine> engine;
  double setup_seconds = 0;
  bool failed = false;
  bool in_flight = false;
};

Exchange::Exchange(MPI_Comm comm, const Layout& src, const Layout& dst,
                   std::vector<FieldSpec> fields, const std::string& engine,
                   const EngineOptions& options)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.comm = Comm::dup(comm);
  const double start = MPI_Wtime();
  s.fields = std::move(fields);
  detail::agree_on(s.comm, [&] {
    s.engine_name = resolve_engine_name(engine);
    s.engine = make_engine(s.engine_name);
    FERRY_CHECK(!s.fields.empty(), Errc::Arg,
                "Exchange: no fields given. Describe at least one field (type and components)");
  });
  s.plan = Plan::build(s.comm, src, dst);
  detail::agree_on(s.comm, [&] {
    s.engine->setup(s.plan, s.comm, s.fields, options);
    options.check_all_read(s.engine_name);
  });
  s.setup_seconds = MPI_Wtime() - start;
}

Exchange::~Exchange() = default;
Exchange::Exchange(Exchange&&) noexcept = default;
Exchange& Exchange::operator=(Exchange&&) noexcept = default;

void Exchange::execute(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  begin(src, dst, mask);
  end();
}

void Exchange::begin(const void* const* src, void* const* dst, const std::uint8_t* mask) {
  FERRY_CHECK(state_, Errc::State, "Exchange::begin: the exchange was moved from");
  State& s = *state_;
  FERRY_CHECK(!s.failed, Errc::State,
              "Exchange::begin: an earlier exchange failed; this object can only be destroyed");
  FERRY_CHECK(!s.in_flight, Errc::State,
              "Exchange::begin: the previous begin() has not been completed by end()");
  try {
    s.engine->begin(src, dst, mask);
  } catch (...) {
    s.failed = true;
    throw;
  }
  s.in_flight = true;
}

void Exchange::end() {
  FERRY_CHECK(state_, Errc::State, "Exchange::end: the exchange was moved from");
  State& s = *state_;
  FERRY_CHECK(!s.failed, Errc::State,
              "Exchange::end: an earlier exchange failed; this object can only be destroyed");
  FERRY_CHECK(s.in_flight, Errc::State, "Exchange::end: no exchange in flight; call begin() first");
  s.in_flight = false;
  try {
    s.engine->end();
  } catch (...) {
    s.failed = true;
    throw;
  }
}

bool Exchange::test() {
  FERRY_CHECK(state_, Errc::State, "Exchange::test: the exchange was moved from");
  State& s = *state_;
  FERRY_CHECK(!s.failed, Errc::State,
              "Exchange::test: an earlier exchange failed; this object can only be destroyed");
  FERRY_CHECK(s.in_flight, Errc::State, "Exchange::test: no exchange in flight; call begin() first");
  try {
    return s.engine->test();
  } catch (...) {
    s.failed = true;
    throw;
  }
}

const Plan& Exchange::plan() const noexcept { return state_->plan; }
const std::vector<FieldSpec>& Exchange::fields() const noexcept { return state_->fields; }
const std::string& Exchange::engine_name() const noexcept { return state_->engine_name; }
Traffic Exchange::traffic() const { return state_->engine->traffic(); }
EngineReport Exchange::engine_report() const { return state_->engine->report(); }
double Exchange::setup_seconds() const noexcept { return state_->setup_seconds; }
MPI_Comm Exchange::comm() const noexcept { return state_->comm.get(); }

}  // namespace ferry
