#include "exchange_bench.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "baseline_exchange.hpp"
#include "ferry/exchange.hpp"
#include "payload_copy.hpp"
#include "progress.hpp"
#include "statistics.hpp"
#include "timing.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry::bench {

namespace {

constexpr std::size_t kValueBytes = sizeof(double);

ExchangeRun resolve_run(const Comm& comm, const ExchangeBenchConfig& config) {
  FERRY_CHECK(config.repeat >= 1, Errc::Arg, "bench exchange: repeat must be >= 1; got ",
              config.repeat);
  ExchangeRun run;
  run.roles = assign_roles(config.groups, comm.size(), comm.rank());
  run.scenario = make_scenario(config.scenario, run.roles);
  run.ranks = comm.size();
  run.repeat = config.repeat;
  run.mode = config.mode;
  run.per_field = config.per_field;
  run.bound_repeat = config.bound_repeat;
  run.engine_memory = config.engine_memory;
  FERRY_CHECK(config.bound_repeat >= 1, Errc::Arg,
              "bench exchange: the memcpy bound needs >= 1 copies; got ", config.bound_repeat);
  return run;
}

// A step's pieces: the exchanges (or baselines) of one engine and what each moves.
// With engine memory, `into` is where the last exchange delivered each field: the
// engine's memory where it offers some, else dst.
template <class Transfer>
struct Piece {
  std::unique_ptr<Transfer> transfer;
  const void* const* src;
  void* const* dst;
  std::vector<void*> into;
  std::size_t field_bytes = 0;  // of one field on this rank's destination side
};

}  // namespace

const char* mode_name(Mode mode) noexcept {
  return mode == Mode::PingPong ? "pingpong" : "oneway";
}

struct ExchangeBench::Transfers {
  std::vector<Piece<Exchange>> exchanges;
  std::vector<Piece<BaselineExchange>> baselines;
  bool engine_memory = false;

  void step() {
    for (auto& p : exchanges) {
      if (!engine_memory) {
        p.transfer->execute(p.src, p.dst);
        continue;
      }
      for (std::size_t f = 0; f < p.into.size(); ++f) {
        void* memory = p.transfer->destination_field(f);
        p.into[f] = memory ? memory : p.dst[f];
      }
      p.transfer->execute(p.src, p.into.data());
    }
    for (auto& p : baselines) p.transfer->execute(p.src, p.dst);
  }
  // Brings what the last step delivered into the engines' memory to the dst arrays.
  void copy_out() const {
    for (const auto& p : exchanges)
      for (std::size_t f = 0; f < p.into.size(); ++f)
        if (p.into[f] != nullptr && p.into[f] != p.dst[f])
          std::memcpy(p.dst[f], p.into[f], p.field_bytes);
  }
  template <class F>
  void each(F&& f) const {
    for (const auto& p : exchanges) f(*p.transfer);
    for (const auto& p : baselines) f(*p.transfer);
  }
};

ExchangeBench::ExchangeBench(MPI_Comm comm, const ExchangeBenchConfig& config)
    : comm_(Comm::dup(comm)),
      run_(resolve_run(comm_, config)),
      layouts_(make_layouts(run_.scenario, run_.roles)),
      data_(layouts_.src, layouts_.dst, run_.scenario.fields),
      adaptive_options_(config.adaptive_options) {
  if (run_.mode == Mode::PingPong)
    back_ = std::make_unique<FieldData>(layouts_.dst, layouts_.src, run_.scenario.fields);
  // A rank must at least read all it sends or write all it receives.
  const std::int64_t points = std::max(layouts_.src.local_size(), layouts_.dst.local_size());
  payload_bytes_ = points * run_.scenario.fields * static_cast<std::int64_t>(kValueBytes);
  run_.payload_bytes_max = spread_over_ranks(comm_, payload_bytes_, true).max;
}

void ExchangeBench::check_values(const std::string& engine) {
  std::optional<Error> wrong;
  std::optional<std::string> mismatch = data_.first_mismatch();
  if (!mismatch && back_) mismatch = back_->first_mismatch();
  if (mismatch)
    wrong = Error(Errc::Internal,
                  detail::cat("bench exchange: engine \"", engine,
                              "\" delivered wrong values on rank ", comm_.rank(),
                              back_ && !data_.first_mismatch() ? " on the way back: " : ": ",
                              *mismatch,
                              ". This is a bug in the engine, please report it with this command"),
                  comm_.rank());
  detail::agree(comm_, wrong);
}

std::unique_ptr<ExchangeBench::Transfers> ExchangeBench::make_transfers(
    const std::string& engine) {
  auto transfers = std::make_unique<Transfers>();
  transfers->engine_memory = run_.engine_memory;
  const int fields = run_.scenario.fields;
  const int per_exchange = run_.per_field ? 1 : fields;
  const std::vector<FieldSpec> specs(static_cast<std::size_t>(per_exchange),
                                     FieldSpec{Datatype::Float64, 1});
  auto add = [&](const Layout& from, const Layout& to, const void* const* src, void* const* dst) {
    for (int f = 0; f < fields; f += per_exchange) {
      if (engine == kBaselineName) {
        transfers->baselines.push_back(
            {std::make_unique<BaselineExchange>(comm_.get(), from, to, per_exchange), src + f,
             dst + f, {}, 0});
        continue;
      }
      transfers->exchanges.push_back(
          {std::make_unique<Exchange>(comm_.get(), from, to, specs, engine,
                                      engine == "adaptive" ? adaptive_options_ : EngineOptions{}),
           src + f, dst + f, std::vector<void*>(specs.size(), nullptr),
           static_cast<std::size_t>(to.local_size()) * kValueBytes});
    }
  };
  add(layouts_.src, layouts_.dst, data_.src(), data_.dst());
  // The way back sends what arrived; back_ checks it against the source's values.
  if (!back_) return transfers;
  const std::size_t way_there = transfers->exchanges.size();
  add(layouts_.dst, layouts_.src, data_.dst(), back_->dst());
  // With engine memory, from where it arrived: the way there's `into`, filled by each
  // step before the way back runs (and valid until the end of the next exchange).
  // Moving a Piece keeps its vector's buffer, so the pointers stay valid.
  if (run_.engine_memory)
    for (std::size_t k = 0; k < way_there; ++k)
      transfers->exchanges[way_there + k].src = transfers->exchanges[k].into.data();
  return transfers;
}

void ExchangeBench::settle(Exchange& exchange) {
  // Every rank sees the engine settle at the same exchange (its decisions are collective).
  while (!exchange.engine_report().settled) exchange.execute(data_.src(), data_.dst());
}

EngineReport ExchangeBench::tune(const std::string& engine, const EngineOptions& options) {
  const std::vector<FieldSpec> specs(static_cast<std::size_t>(run_.scenario.fields),
                                     FieldSpec{Datatype::Float64, 1});
  progress().stage("profiling the candidates of " + engine);
  Exchange exchange(comm_.get(), layouts_.src, layouts_.dst, specs, engine, options);
  data_.clear_destination();
  settle(exchange);
  // A settled engine made no exchange if its choice came from the cache: make one to check.
  exchange.execute(data_.src(), data_.dst());
  check_values(engine);
  return exchange.engine_report();
}

ExchangeResults ExchangeBench::measure(const std::vector<std::string>& engines) {
  ExchangeResults results;
  results.memcpy_bound =
      time_payload_copy(comm_, static_cast<std::size_t>(payload_bytes_), run_.bound_repeat);
  // Every transfer stays alive until the rotation has timed them all.
  std::vector<std::unique_ptr<Transfers>> transfers;
  std::vector<std::function<void()>> steps;
  results.engines.resize(engines.size());
  for (std::size_t k = 0; k < engines.size(); ++k) {
    progress().stage("setting up " + engines[k] +
                     (engines[k] == "adaptive" ? " (it profiles its candidates)" : ""));
    EngineResult& row = results.engines[k];
    row.engine = engines[k];
    transfers.push_back(make_transfers(engines[k]));
    Transfers& t = *transfers.back();
    double setup = 0;
    Traffic traffic;
    t.each([&](const auto& transfer) {
      setup += transfer.setup_seconds();
      const Traffic one = transfer.traffic();
      traffic.messages += one.messages;
      traffic.bytes += one.bytes;
      traffic.rounds = std::max(traffic.rounds, one.rounds);
    });
    // Until every exchange of the step has settled, the adaptive engine profiles.
    const double start = MPI_Wtime();
    const auto settled = [&t] {
      bool all = true;
      for (const auto& p : t.exchanges) all = all && p.transfer->engine_report().settled;
      return all;
    };
    while (!settled()) t.step();
    row.profiling_seconds = max_over_ranks(comm_, MPI_Wtime() - start);
    row.setup_seconds = max_over_ranks(comm_, setup);
    row.traffic = traffic_over_ranks(comm_, traffic);
    for (const auto& p : t.exchanges) {
      const EngineReport report = p.transfer->engine_report();
      if (report.choice.empty()) continue;
      if (row.report.text.empty()) row.report = report;
      row.choices.push_back(report.choice);
    }
    // The warm-up step is also the one whose values are checked.
    data_.clear_destination();
    if (back_) back_->clear_destination();
    t.step();
    t.copy_out();
    check_values(engines[k]);
    steps.push_back([&t] { t.step(); });
  }

  progress().stage(detail::cat("timing ", run_.repeat, " rounds of ", engines.size(),
                              " engines and the memcpy bound"));
  const std::vector<Summary> times = time_in_rotation(comm_, run_.repeat, steps);
  for (std::size_t k = 0; k < engines.size(); ++k) results.engines[k].exchange = times[k];
  return results;
}

}  // namespace ferry::bench
