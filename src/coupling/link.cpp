#include "coupling/link.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>

#include "coupling/io/field_file.hpp"
#include "coupling/watchdog.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

using detail::ScopedTimer;
using detail::TimerCategory;

constexpr double kNever = -std::numeric_limits<double>::infinity();

// The members of a group as a communicator of their own (Comm() elsewhere).
Comm split(const Comm& run, bool member) {
  MPI_Comm comm = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Comm_split(run.get(), member ? 0 : MPI_UNDEFINED, run.rank(), &comm));
  return member ? Comm::adopt(comm) : Comm();
}

// The coupler's put/get need engines whose two sides progress independently: a put
// returns before the destination arrives. The butterfly forwards data through ranks
// of both components at once, so it cannot serve put/get, alone or inside adaptive.
constexpr const char* kIndependentEngines[] = {"p2p", "alltoallv", "neighbor", "rma"};

std::string engine_for_coupling(const ExchangeConfig& config) {
  FERRY_CHECK(config.engine != "butterfly", Errc::Arg, config.where.file, ":", config.where.line, ":",
              config.where.column, ": exchange \"", config.name,
              "\": engine butterfly needs both components inside one exchange call at once, which "
              "put/get cannot promise. Use auto, p2p, alltoallv, neighbor or rma");
  return config.engine == "auto" ? "adaptive" : config.engine;
}

EngineOptions options_of(const ExchangeConfig& config) {
  EngineOptions options;
  options.values = config.engine_options;
  if (engine_for_coupling(config) != "adaptive") return options;
  // Releasing a candidate's windows or communicators is collective: keep them all.
  options.values["keep_candidates"] = "true";
  auto& candidates = options.values["candidates"];
  if (candidates.empty()) {
    const std::vector<std::string> registered = engine_names();
    for (const char* engine : kIndependentEngines)
      if (std::find(registered.begin(), registered.end(), engine) != registered.end())
        candidates += (candidates.empty() ? "" : ",") + std::string(engine);
  }
  FERRY_CHECK(candidates.find("butterfly") == std::string::npos, Errc::Arg, config.where.file, ":",
              config.where.line, ":", config.where.column, ": exchange \"", config.name,
              "\": adaptive candidates may not include butterfly in the coupler (put/get cannot "
              "have both components inside one exchange call at once)");
  return options;
}

}  // namespace

Link::Link(const Comm& run, LinkSpec spec, const Config& config, detail::Timers& timers)
    : spec_(std::move(spec)),
      clock_(config.start, config.length, spec_.config->period, spec_.config->lag),
      output_directory_(config.output_directory),
      watchdog_seconds_(config.watchdog_seconds),
      timers_(timers) {
  ScopedTimer timer(timers_, name(), TimerCategory::Setup);
  link_comm_ = split(run, spec_.source_member || spec_.target_member);
  source_comm_ = split(run, spec_.source_member);
  target_comm_ = split(run, spec_.target_member);
  const std::size_t fields = spec_.specs.size();
  if (link_comm_.valid()) {
    const Layout none = Layout::none(spec_.grid_size);
    exchange_ = std::make_unique<Exchange>(
        link_comm_.get(), spec_.source_member ? *spec_.source_layout : none,
        spec_.target_member ? *spec_.target_layout : none, spec_.specs,
        engine_for_coupling(*spec_.config), options_of(*spec_.config));
  }
  send_from_.assign(fields, nullptr);
  receive_into_.assign(fields, nullptr);

  const ExchangeConfig& c = *spec_.config;
  if (spec_.source_member) {
    const bool waits = fields > 1 || c.transform != Transform::Instant || c.lag > 0;
    for (std::size_t f = 0; waits && f < fields; ++f)
      staging_.emplace_back(value_count(spec_.source_layout, f) * datatype_size(spec_.specs[f].type));
    if (c.transform != Transform::Instant)
      for (std::size_t f = 0; f < fields; ++f)
        transforms_.emplace_back(c.transform, spec_.specs[f].type,
                                 static_cast<std::int64_t>(value_count(spec_.source_layout, f)));
    ready_.assign(fields, 0);
    last_put_.assign(fields, kNever);
    next_put_ = clock_.first_put_time();
  }
  if (spec_.target_member) {
    if (fields > 1 || spec_.source_member)
      for (std::size_t f = 0; f < fields; ++f)
        received_.emplace_back(value_count(spec_.target_layout, f) * datatype_size(spec_.specs[f].type));
    next_get_.assign(fields, clock_.first_get_time());
    last_get_.assign(fields, kNever);
  }
  if (spec_.source_member) read_restart();
}

Link::~Link() = default;

std::size_t Link::value_count(const Layout* layout, std::size_t index) const {
  return static_cast<std::size_t>(layout->local_size()) *
         static_cast<std::size_t>(spec_.specs[index].components);
}

std::string Link::restart_path() const {
  const std::string file = spec_.config->restart.empty() ? name() + "_restart.nc" : spec_.config->restart;
  return file.front() == '/' ? file : output_directory_ + "/" + file;
}

int Link::put(std::size_t index, double time, const void* data) {
  ScopedTimer timer(timers_, name(), TimerCategory::Put);
  const std::string& field = spec_.source_names[index];
  FERRY_CHECK(!clock_.before(time, last_put_[index]), Errc::Arg, "put(\"", field, "\"): time ", time,
              " s comes before the previous put at ", last_put_[index],
              " s. Model time must not go backwards");
  FERRY_CHECK(clock_.before(time, clock_.end()), Errc::Arg, "put(\"", field, "\"): time ", time,
              " s is not before the end of the run (", clock_.end(),
              " s = start + length in the configuration)");
  FERRY_CHECK(!(ready_[index] && clock_.same(time, next_put_)), Errc::State, "put(\"", field,
              "\"): put twice at the coupling time ", time, " s of exchange \"", name(), "\"");
  last_put_[index] = time;
  if (clock_.before(time, next_put_)) {
    if (transforms_.empty()) return kStatusNothing;
    ScopedTimer transform(timers_, name(), TimerCategory::Transform);
    transforms_[index].add(data);
    return kStatusTransformed;
  }
  FERRY_CHECK(clock_.same(time, next_put_), Errc::State, "put(\"", field, "\") at ", time,
              " s skips the coupling time ", next_put_, " s of exchange \"", name(), "\" (period ",
              clock_.period(), " s, lag ", clock_.lag(),
              " s). Put the field at every coupling time (and, with a lag and no restart file, "
              "once at start - lag right after enddef)");

  // The period's value: transformed, or the put itself, kept if it must wait.
  const void* value = data;
  if (!transforms_.empty()) {
    ScopedTimer transform(timers_, name(), TimerCategory::Transform);
    transforms_[index].add(data);
    transforms_[index].take(staging_[index].data());
    value = staging_[index].data();
  } else if (!staging_.empty()) {
    ScopedTimer pack(timers_, name(), TimerCategory::Pack);
    std::memcpy(staging_[index].data(), data, staging_[index].size());
    value = staging_[index].data();
  }
  send_from_[index] = value;
  ready_[index] = 1;
  if (std::find(ready_.begin(), ready_.end(), 0) != ready_.end()) return kStatusSent;

  int status = kStatusSent;
  const double target = clock_.target_of(next_put_);
  if (clock_.received_in_run(target)) {
    send(target);
    if (spec_.config->output)
      status |= output(source_comm_, "source", target, send_from_, spec_.source_names,
                       spec_.source_grid, *spec_.source_layout);
  } else {
    pending_ = true;  // for the next run: written to the restart file at finalize
  }
  std::fill(ready_.begin(), ready_.end(), 0);
  next_put_ = clock_.next(next_put_);
  return status;
}

void Link::send(double target) {
  if (in_flight_) {
    FERRY_CHECK(!spec_.target_member, Errc::State, "put for exchange \"", name(), "\" at time ",
                target - clock_.lag(), " s: this rank also gets the exchange and has not yet got the "
                "value for ", in_flight_target_,
                " s. On ranks that put and get one exchange, call get before the next put (order "
                "exchanges of one coupling time with sequence)");
    // A put never runs more than one period ahead: the previous value must be delivered.
    const double waited = wait_or_fail([&] { return exchange_->test(); }, watchdog_seconds_, [&] {
      return detail::cat("put for exchange \"", name(), "\" at time ", target - clock_.lag(),
                         " s has waited ", watchdog_seconds_, " s for component \"",
                         target_component(), "\" to get the value for ", in_flight_target_,
                         " s. Check that every coupling time is got, or raise watchdog.timeout");
    });
    timers_.add(name(), TimerCategory::Wait, waited);
    ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
    exchange_->end();
    in_flight_ = false;
  }
  for (std::size_t f = 0; f < received_.size(); ++f) receive_into_[f] = received_[f].data();
  ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
  exchange_->begin(send_from_.data(), receive_into_.data());
  in_flight_ = true;
  in_flight_target_ = target;
}

int Link::get(std::size_t index, double time, void* data) {
  ScopedTimer timer(timers_, name(), TimerCategory::Get);
  const std::string& field = spec_.target_names[index];
  FERRY_CHECK(!clock_.before(time, last_get_[index]), Errc::Arg, "get(\"", field, "\"): time ", time,
              " s comes before the previous get at ", last_get_[index],
              " s. Model time must not go backwards");
  FERRY_CHECK(clock_.before(time, clock_.end()), Errc::Arg, "get(\"", field, "\"): time ", time,
              " s is not before the end of the run (", clock_.end(),
              " s = start + length in the configuration)");
  last_get_[index] = time;
  if (clock_.before(time, next_get_[index])) return kStatusNothing;
  FERRY_CHECK(clock_.same(time, next_get_[index]), Errc::State, "get(\"", field, "\") at ", time,
              " s skips the coupling time ", next_get_[index], " s of exchange \"", name(),
              "\" (period ", clock_.period(), " s). Get the field at every coupling time");
  next_get_[index] = clock_.next(time);

  int status = kStatusReceived;
  if (!has_received_ || !clock_.same(received_time_, time)) {
    receive(time, received_.empty() ? data : nullptr);
    if (spec_.config->output) {
      std::vector<const void*> values;
      for (std::size_t f = 0; f < spec_.specs.size(); ++f)
        values.push_back(received_.empty() ? data : received_[f].data());
      status |= output(target_comm_, "target", time, values, spec_.target_names,
                       spec_.target_grid, *spec_.target_layout);
    }
  }
  if (!received_.empty()) {
    ScopedTimer pack(timers_, name(), TimerCategory::Pack);
    std::memcpy(data, received_[index].data(), received_[index].size());
  }
  if (clock_.from_previous_run(time)) status |= kStatusFromRestart;
  return status;
}

void Link::receive(double time, void* single_destination) {
  if (!in_flight_) {
    FERRY_CHECK(!spec_.source_member, Errc::State, "get for exchange \"", name(), "\" at time ", time,
                " s: this rank also puts the exchange and has not put the value for ", time,
                " s yet (the put at ", time - clock_.lag(),
                " s). On ranks that put and get one exchange, put first (order exchanges of one "
                "coupling time with sequence)");
    if (single_destination != nullptr)
      receive_into_[0] = single_destination;
    else
      for (std::size_t f = 0; f < received_.size(); ++f) receive_into_[f] = received_[f].data();
    const std::vector<const void*> no_source(spec_.specs.size(), nullptr);
    ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
    exchange_->begin(no_source.data(), receive_into_.data());
    in_flight_ = true;
    in_flight_target_ = time;
  }
  FERRY_CHECK(clock_.same(in_flight_target_, time), Errc::State, "get for exchange \"", name(),
              "\" at time ", time, " s: the value in flight on this rank is for ", in_flight_target_,
              " s. On ranks that put and get one exchange, the lag must match the order of calls");
  const double waited = wait_or_fail([&] { return exchange_->test(); }, watchdog_seconds_, [&] {
    return detail::cat("get for exchange \"", name(), "\" at time ", time, " s has waited ",
                       watchdog_seconds_, " s for component \"", source_component(),
                       "\" to put it. Check the sequence of put and get calls of both "
                       "components, or raise watchdog.timeout");
  });
  timers_.add(name(), TimerCategory::Wait, waited);
  {
    ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
    exchange_->end();
  }
  in_flight_ = false;
  has_received_ = true;
  received_time_ = time;
}

int Link::output(const Comm& comm, const char* side, double time,
                 const std::vector<const void*>& data, const std::vector<std::string>& names,
                 const std::string& grid, const Layout& layout) {
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  std::vector<FieldRecord> records;
  std::vector<const Layout*> layouts;
  for (std::size_t f = 0; f < names.size(); ++f) {
    FieldRecord r;
    r.name = names[f];
    r.grid = grid;
    r.global_size = spec_.grid_size;
    r.components = spec_.specs[f].components;
    r.type = spec_.specs[f].type;
    r.time = time;
    records.push_back(r);
    layouts.push_back(&layout);
  }
  FieldFile::append(comm, output_directory_ + "/" + name() + "_" + side + ".nc", records, layouts,
                    data);
  return kStatusOutput;
}

void Link::read_restart() {
  const ExchangeConfig& c = *spec_.config;
  if (c.lag <= 0 && transforms_.empty()) return;
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  const std::string path = restart_path();
  int exists = 0;
  if (source_comm_.rank() == 0) exists = std::ifstream(path).good() ? 1 : 0;
  FERRY_CALL_MPI(MPI_Bcast(&exists, 1, MPI_INT, 0, source_comm_.get()));
  // Without a file, a lagged exchange takes its first value from a put at start - lag.
  if (!exists) return;

  auto expected = [&](std::size_t f, const std::string& suffix, double time) {
    FieldRecord r;
    r.name = spec_.source_names[f] + suffix;
    r.grid = spec_.source_grid;
    r.global_size = spec_.grid_size;
    r.components = spec_.specs[f].components;
    r.type = suffix.empty() ? spec_.specs[f].type : Datatype::Float64;
    r.time = time;
    return r;
  };
  if (c.lag > 0) {
    for (std::size_t f = 0; f < spec_.specs.size(); ++f) {
      FieldFile::read(source_comm_, path, expected(f, "", clock_.start()), *spec_.source_layout,
                      staging_[f].data());
      send_from_[f] = staging_[f].data();
    }
    send(clock_.start());
    next_put_ = clock_.next(next_put_);
  }
  // An accumulation the previous run left unfinished, for the coupling time next_put_.
  for (std::size_t f = 0; f < transforms_.size(); ++f) {
    std::vector<double> state(value_count(spec_.source_layout, f));
    try {
      const FieldRecord stored = FieldFile::read(source_comm_, path, expected(f, ":accumulated", next_put_),
                                                 *spec_.source_layout, state.data());
      transforms_[f].restore(state, static_cast<int>(stored.numbers.at("count")));
    } catch (const Error& e) {
      if (e.code() != Errc::Io) throw;  // no accumulation stored: a fresh period
    }
  }
}

void Link::write_restart() {
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  std::vector<FieldRecord> records;
  std::vector<const Layout*> layouts;
  std::vector<const void*> data;
  for (std::size_t f = 0; f < spec_.specs.size(); ++f) {
    FieldRecord r;
    r.name = spec_.source_names[f];
    r.grid = spec_.source_grid;
    r.global_size = spec_.grid_size;
    r.components = spec_.specs[f].components;
    r.type = spec_.specs[f].type;
    if (pending_) {
      r.time = clock_.target_of(next_put_ - clock_.period());  // the last coupling put's target
      records.push_back(r);
      layouts.push_back(spec_.source_layout);
      data.push_back(staging_[f].data());
    }
    if (f < transforms_.size() && transforms_[f].count() > 0) {
      r.name += ":accumulated";
      r.type = Datatype::Float64;
      r.time = next_put_;
      r.numbers["count"] = transforms_[f].count();
      records.push_back(r);
      layouts.push_back(spec_.source_layout);
      data.push_back(transforms_[f].state().data());
    }
  }
  if (!records.empty()) FieldFile::write(source_comm_, restart_path(), records, layouts, data);
}

void Link::finalize() {
  if (in_flight_) {
    const double waited = wait_or_fail([&] { return exchange_->test(); }, watchdog_seconds_, [&] {
      return detail::cat("finalize: exchange \"", name(), "\" still waits for component \"",
                         target_component(), "\" to get the value for ", in_flight_target_,
                         " s. Every coupling time before the run's end must be got");
    });
    timers_.add(name(), TimerCategory::Wait, waited);
    exchange_->end();
    in_flight_ = false;
  }
  if (spec_.source_member) write_restart();
}

}  // namespace ferry::coupling
