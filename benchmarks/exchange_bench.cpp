#include "exchange_bench.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "baseline_exchange.hpp"
#include "ferry/exchange.hpp"
#include "payload_copy.hpp"
#include "progress.hpp"
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
  return run;
}

}  // namespace

ExchangeBench::ExchangeBench(MPI_Comm comm, const ExchangeBenchConfig& config)
    : comm_(Comm::dup(comm)),
      run_(resolve_run(comm_, config)),
      layouts_(make_layouts(run_.scenario, run_.roles)),
      data_(layouts_.src, layouts_.dst, run_.scenario.fields),
      adaptive_options_(config.adaptive_options) {
  // A rank must at least read all it sends or write all it receives.
  const std::int64_t points = std::max(layouts_.src.local_size(), layouts_.dst.local_size());
  payload_bytes_ = points * run_.scenario.fields * static_cast<std::int64_t>(kValueBytes);
  run_.payload_bytes_max = spread_over_ranks(comm_, payload_bytes_, true).max;
}

template <class Transfer>
std::function<void()> ExchangeBench::prepare(const std::string& engine, Transfer& transfer,
                                             EngineResult& row) {
  row.engine = engine;
  row.setup_seconds = max_over_ranks(comm_, transfer.setup_seconds());
  row.traffic = traffic_over_ranks(comm_, transfer.traffic());
  auto step = [this, &transfer] { transfer.execute(data_.src(), data_.dst()); };

  // The warm-up exchange is also the one whose values are checked.
  data_.clear_destination();
  step();
  check_values(engine);
  return step;
}

void ExchangeBench::check_values(const std::string& engine) {
  std::optional<Error> wrong;
  if (auto mismatch = data_.first_mismatch())
    wrong = Error(Errc::Internal,
                  detail::cat("bench exchange: engine \"", engine,
                              "\" delivered wrong values on rank ", comm_.rank(), ": ", *mismatch,
                              ". This is a bug in the engine, please report it with this command"),
                  comm_.rank());
  detail::agree(comm_, wrong);
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
  const int fields = run_.scenario.fields;
  const std::vector<FieldSpec> specs(static_cast<std::size_t>(fields),
                                     FieldSpec{Datatype::Float64, 1});
  // Every transfer stays alive until the rotation has timed them all.
  std::vector<std::unique_ptr<Exchange>> exchanges;
  std::vector<std::unique_ptr<BaselineExchange>> baselines;
  PayloadCopy copy(static_cast<std::size_t>(payload_bytes_));
  copy.run();  // warm-up: both buffers mapped and cached as far as they fit
  std::vector<std::function<void()>> steps = {[&copy] { copy.run(); }};

  ExchangeResults results;
  results.engines.resize(engines.size());
  for (std::size_t k = 0; k < engines.size(); ++k) {
    progress().stage("setting up " + engines[k] +
                     (engines[k] == "adaptive" ? " (it profiles its candidates)" : ""));
    if (engines[k] == kBaselineName) {
      baselines.push_back(std::make_unique<BaselineExchange>(comm_.get(), layouts_.src,
                                                             layouts_.dst, fields));
      steps.push_back(prepare(engines[k], *baselines.back(), results.engines[k]));
    } else {
      exchanges.push_back(std::make_unique<Exchange>(
          comm_.get(), layouts_.src, layouts_.dst, specs, engines[k],
          engines[k] == "adaptive" ? adaptive_options_ : EngineOptions{}));
      const double start = MPI_Wtime();
      settle(*exchanges.back());
      results.engines[k].profiling_seconds = max_over_ranks(comm_, MPI_Wtime() - start);
      steps.push_back(prepare(engines[k], *exchanges.back(), results.engines[k]));
      results.engines[k].report = exchanges.back()->engine_report();
    }
  }

  progress().stage(detail::cat("timing ", run_.repeat, " rounds of ", engines.size(),
                              " engines and the memcpy bound"));
  const std::vector<Summary> times = time_in_rotation(comm_, run_.repeat, steps);
  results.memcpy_bound = times[0];
  for (std::size_t k = 0; k < engines.size(); ++k) results.engines[k].exchange = times[k + 1];
  return results;
}

}  // namespace ferry::bench
