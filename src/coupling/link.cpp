#include "coupling/link.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <limits>

#include "config/rules.hpp"
#include "coupling/field_file.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

using detail::ScopedTimer;
using detail::TimerCategory;

constexpr double kNever = -std::numeric_limits<double>::infinity();

}  // namespace

std::string where(const config::ExchangeConfig& e) {
  return detail::cat(e.where.file, ":", e.where.line, ":", e.where.column, ": exchange \"", e.name,
                     "\"");
}

Link::Link(LinkSpec spec, std::shared_ptr<const PartitionRoute> route, std::unique_ptr<EntryRegrid> regrid,
           const config::Config& config, const Watchdog& watchdog, detail::Timers& timers)
    : spec_(std::move(spec)),
      clock_(config.start, config.length, spec_.config->period, spec_.config->lag),
      output_directory_(config.output_directory),
      watchdog_(watchdog),
      imbalance_timer_(config.imbalance_timer),
      timers_(timers),
      route_(std::move(route)),
      regrid_(std::move(regrid)) {
  ScopedTimer timer(timers_, name(), TimerCategory::Setup);
  const std::size_t fields = spec_.specs.size();
  const config::ExchangeConfig& c = *spec_.config;
  if (route_->link.valid()) {
    const config::CouplingEngine engine = config::coupling_engine(c);
    exchange_ = std::make_unique<Exchange>(route_->link.get(), route_->plan, spec_.specs,
                                           engine.name, engine.options);
    // Output files need every field's values at once, which the engine does not show;
    // a product reads and writes whole fields too.
    engine_holds_ = exchange_->capabilities().holds_fields && !c.output && !c.regrid.enabled();
  }
  regrid_before_ = regrid_ && c.regrid.map_on == MapOn::Src;
  regrid_after_ = regrid_ && c.regrid.map_on == MapOn::Dst;
  send_from_.assign(fields, nullptr);
  receive_into_.assign(fields, nullptr);

  if (spec_.source_member) {
    sends_caller_array_ =
        !engine_holds_ && fields == 1 && c.transform == config::Transform::Instant && c.lag <= 0;
    if (c.transform != config::Transform::Instant) {
      std::size_t largest = 0;
      for (std::size_t f = 0; f < fields; ++f) {
        const auto values = value_count(spec_.source_layout, f);
        transforms_.emplace_back(c.transform, spec_.specs[f].type, static_cast<std::int64_t>(values));
        largest = std::max(largest, values * datatype_size(spec_.specs[f].type));
      }
      if (engine_holds_) scratch_.resize(largest);
    }
    ready_.assign(fields, 0);
    last_put_.assign(fields, kNever);
    next_put_ = clock_.first_put_time();
  }
  if (spec_.target_member) {
    // A regridded field gets its masked points filled in these copies.
    if (!engine_holds_ && (fields > 1 || spec_.source_member || c.regrid.enabled()))
      for (std::size_t f = 0; f < fields; ++f)
        received_.emplace_back(value_count(spec_.target_layout, f) * datatype_size(spec_.specs[f].type));
    next_get_.assign(fields, clock_.first_get_time());
    last_get_.assign(fields, kNever);
    const std::vector<std::int32_t>& mask = spec_.target_partition->mask;
    if (c.regrid.enabled())
      for (std::size_t i = 0; i < mask.size(); ++i)
        if (mask[i] == 0) masked_targets_.push_back(static_cast<std::int64_t>(i));
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

void Link::check_put(std::size_t index, double time) const {
  const std::string& field = spec_.source_names[index];
  FERRY_CHECK(!clock_.before(time, last_put_[index]), Errc::Arg, "put(\"", field, "\"): time ", time,
              " s comes before the previous put at ", last_put_[index],
              " s. Model time must not go backwards");
  FERRY_CHECK(clock_.before(time, clock_.end()), Errc::Arg, "put(\"", field, "\"): time ", time,
              " s is not before the end of the run (", clock_.end(),
              " s = start + length in the configuration)");
  FERRY_CHECK(!(ready_[index] && clock_.same(time, next_put_)), Errc::State, "put(\"", field,
              "\"): put twice at the coupling time ", time, " s of exchange \"", name(), "\"");
  FERRY_CHECK(clock_.before(time, next_put_) || clock_.same(time, next_put_), Errc::State, "put(\"",
              field, "\") at ", time, " s skips the coupling time ", next_put_, " s of exchange \"",
              name(), "\" (period ", clock_.period(), " s, lag ", clock_.lag(),
              " s). Put the field at every coupling time (and, with a lag and no restart file, "
              "once at start - lag right after enddef)");
}

int Link::put(std::size_t index, double time, const void* data) {
  ScopedTimer timer(timers_, name(), TimerCategory::Put);
  last_put_[index] = time;
  if (clock_.before(time, next_put_)) {
    if (transforms_.empty()) return kStatusNothing;
    ScopedTimer transform(timers_, name(), TimerCategory::Transform);
    transforms_[index].add(data);
    return kStatusTransformed;
  }

  // The period's value, transformed or the put itself, goes into the engine when it
  // can hold it and the value is sent in this run; else the link keeps it (staging).
  const double target = clock_.target_of(next_put_);
  const bool into_engine = engine_holds_ && clock_.received_in_run(target);
  if (into_engine) complete_send(next_put_);  // the engine's send buffer must be free
  const void* value = data;
  if (!transforms_.empty()) {
    ScopedTimer transform(timers_, name(), TimerCategory::Transform);
    transforms_[index].add(data);
    void* out = into_engine ? scratch_.data() : staging(index);
    transforms_[index].take(out);
    value = out;
  }
  hand_over(index, value, into_engine);
  ready_[index] = 1;
  if (std::find(ready_.begin(), ready_.end(), 0) != ready_.end()) return kStatusSent;

  int status = kStatusSent;
  if (clock_.received_in_run(target)) {
    time_imbalance(route_->source, source_component());
    send(target);
    if (spec_.config->output)
      status |= output(route_->source, "source", target, send_from_, spec_.source_names,
                       spec_.source_grid, spec_.source_size, *spec_.source_layout);
  } else {
    pending_ = true;  // for the next run: written to the restart file at finalize
  }
  std::fill(ready_.begin(), ready_.end(), 0);
  next_put_ = clock_.next(next_put_);
  return status;
}

void Link::time_imbalance(const Comm& side, const std::string& component) {
  if (!imbalance_timer_) return;
  // What a rank waits here is its component's slower ranks catching up; without the
  // barrier it would show up later as waiting for the partner or inside the transfer.
  // Non-blocking, so that the watchdog turns a rank that never comes into an error.
  MPI_Request request = MPI_REQUEST_NULL;
  FERRY_CALL_MPI(MPI_Ibarrier(side.get(), &request));
  const double waited = watchdog_.wait(
      [&] {
        int done = 0;
        FERRY_CALL_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
        return done != 0;
      },
      [&] {
        return detail::cat("exchange \"", name(), "\": the imbalance timer has waited ",
                           watchdog_.timeout(), " s for the other ranks of component \"", component,
                           "\" to reach this exchange. Make the puts and gets in the same order "
                           "on every rank of a component, or set output.imbalance: false");
      });
  timers_.add(name(), TimerCategory::Imbalance, waited);
}

void Link::hand_over(std::size_t index, const void* value, bool into_engine) {
  ScopedTimer pack(timers_, name(), TimerCategory::Pack);
  if (into_engine) {
    exchange_->stage(index, value);
    send_from_[index] = nullptr;
    return;
  }
  if (!sends_caller_array_ && value != staging(index)) {
    std::memcpy(staging(index), value, staging_[index].size());
    value = staging(index);
  }
  send_from_[index] = value;
}

char* Link::staging(std::size_t index) {
  if (staging_.empty())
    for (std::size_t f = 0; f < spec_.specs.size(); ++f)
      staging_.emplace_back(value_count(spec_.source_layout, f) * datatype_size(spec_.specs[f].type));
  return staging_[index].data();
}

void Link::complete_send(double put_time) {
  if (!in_flight_) return;
  FERRY_CHECK(!spec_.target_member, Errc::State, "put for exchange \"", name(), "\" at time ",
              put_time, " s: this rank also gets the exchange and has not yet got the value for ",
              in_flight_target_,
              " s. On ranks that put and get one exchange, call get before the next put (order "
              "exchanges of one coupling time with sequence)");
  // A put never runs more than one period ahead: the previous value must be delivered.
  const double waited = watchdog_.wait([&] { return exchange_->test(); }, [&] {
    return detail::cat("put for exchange \"", name(), "\" at time ", put_time, " s has waited ",
                       watchdog_.timeout(), " s for component \"", target_component(),
                       "\" to get the value for ", in_flight_target_,
                       " s. Check that every coupling time is got, or raise watchdog.timeout");
  });
  timers_.add(name(), TimerCategory::Wait, waited);
  ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
  exchange_->end();
  in_flight_ = false;
}

void Link::send(double target) {
  complete_send(target - clock_.lag());
  point_arrivals(receive_into_.size(), nullptr);
  const void* const* from = send_from_.data();
  if (regrid_before_) {
    ScopedTimer product(timers_, name(), TimerCategory::Transform);
    regrid_->apply(send_from_.data(), regrid_->block().data());
    from = regrid_->block().data();
  }
  wait_to_begin("put", target - clock_.lag());
  ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
  exchange_->begin(from, receive_into_.data());
  in_flight_ = true;
  in_flight_target_ = target;
}

void Link::wait_to_begin(const char* call, double time) {
  const double waited = watchdog_.wait([&] { return exchange_->can_begin(); }, [&] {
    return detail::cat(call, " for exchange \"", name(), "\" at time ", time, " s has waited ",
                       watchdog_.timeout(), " s for the ranks of components \"",
                       source_component(), "\" and \"", target_component(),
                       "\" to finish the exchange's previous transfer. Check the sequence of "
                       "put and get calls of both components, or raise watchdog.timeout");
  });
  timers_.add(name(), TimerCategory::Wait, waited);
}

void Link::check_get(std::size_t index, double time) const {
  const std::string& field = spec_.target_names[index];
  FERRY_CHECK(!clock_.before(time, last_get_[index]), Errc::Arg, "get(\"", field, "\"): time ", time,
              " s comes before the previous get at ", last_get_[index],
              " s. Model time must not go backwards");
  FERRY_CHECK(clock_.before(time, clock_.end()), Errc::Arg, "get(\"", field, "\"): time ", time,
              " s is not before the end of the run (", clock_.end(),
              " s = start + length in the configuration)");
  FERRY_CHECK(clock_.before(time, next_get_[index]) || clock_.same(time, next_get_[index]),
              Errc::State, "get(\"", field, "\") at ", time, " s skips the coupling time ",
              next_get_[index], " s of exchange \"", name(), "\" (period ", clock_.period(),
              " s). Get the field at every coupling time");
}

int Link::get(std::size_t index, double time, void* data) {
  ScopedTimer timer(timers_, name(), TimerCategory::Get);
  last_get_[index] = time;
  if (clock_.before(time, next_get_[index])) return kStatusNothing;
  next_get_[index] = clock_.next(time);

  int status = kStatusReceived;
  if (!has_received_ || !clock_.same(received_time_, time)) {
    time_imbalance(route_->target, target_component());
    receive(time, index, data);
    if (spec_.config->output) {
      std::vector<const void*> values;
      for (std::size_t f = 0; f < spec_.specs.size(); ++f)
        values.push_back(received_.empty() ? data : received_[f].data());
      status |= output(route_->target, "target", time, values, spec_.target_names,
                       spec_.target_grid, spec_.target_size, *spec_.target_layout);
    }
  }
  if (!received_.empty()) {
    ScopedTimer pack(timers_, name(), TimerCategory::Pack);
    std::memcpy(data, received_[index].data(), received_[index].size());
  } else if (receive_into_[index] != data) {  // the engine holds it
    ScopedTimer pack(timers_, name(), TimerCategory::Pack);
    exchange_->take(index, data);
  }
  if (clock_.from_previous_run(time)) status |= kStatusFromRestart;
  return status;
}

void Link::receive(double time, std::size_t index, void* data) {
  if (!in_flight_) {
    FERRY_CHECK(!spec_.source_member, Errc::State, "get for exchange \"", name(), "\" at time ", time,
                " s: this rank also puts the exchange and has not put the value for ", time,
                " s yet (the put at ", time - clock_.lag(),
                " s). On ranks that put and get one exchange, put first (order exchanges of one "
                "coupling time with sequence)");
    point_arrivals(index, data);
    const std::vector<const void*> no_source(spec_.specs.size(), nullptr);
    wait_to_begin("get", time);
    ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
    exchange_->begin(no_source.data(), receive_into_.data());
    in_flight_ = true;
    in_flight_target_ = time;
  }
  FERRY_CHECK(clock_.same(in_flight_target_, time), Errc::State, "get for exchange \"", name(),
              "\" at time ", time, " s: the value in flight on this rank is for ", in_flight_target_,
              " s. On ranks that put and get one exchange, the lag must match the order of calls");
  const double waited = watchdog_.wait([&] { return exchange_->test(); }, [&] {
    return detail::cat("get for exchange \"", name(), "\" at time ", time, " s has waited ",
                       watchdog_.timeout(), " s for component \"", source_component(),
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
  finish_arrival();
}

void Link::point_arrivals(std::size_t index, void* data) {
  // The product's block (map_on dst), else the link's copies, else the caller's array
  // of the field got now (index) while the others wait for their gets.
  for (std::size_t f = 0; f < receive_into_.size(); ++f)
    receive_into_[f] = regrid_after_        ? regrid_->block()[f]
                       : !received_.empty() ? received_[f].data()
                       : f == index         ? data
                                            : nullptr;
}

void Link::finish_arrival() {
  const config::RegridConfig& regrid = spec_.config->regrid;
  if (!regrid.enabled()) return;
  ScopedTimer product(timers_, name(), TimerCategory::Transform);
  std::vector<void*> values;
  for (auto& field : received_) values.push_back(field.data());
  if (regrid_after_) regrid_->apply(regrid_->block().data(), values.data());
  for (std::size_t f = 0; f < values.size(); ++f)
    fill_points(spec_.specs[f], values[f], masked_targets_, regrid.fill);
}

int Link::output(const Comm& comm, const char* side, double time,
                 const std::vector<const void*>& data, const std::vector<std::string>& names,
                 const std::string& grid, std::int64_t grid_size, const Layout& layout) {
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  std::vector<FieldRecord> records;
  std::vector<const Layout*> layouts;
  for (std::size_t f = 0; f < names.size(); ++f) {
    FieldRecord r;
    r.name = names[f];
    r.grid = grid;
    r.global_size = grid_size;
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

bool Link::keeps_state() const noexcept {
  return spec_.config->lag > 0 || spec_.config->transform != config::Transform::Instant;
}

FieldRecord Link::restart_record(std::size_t f, bool accumulated, double time) const {
  FieldRecord r;
  r.name = spec_.source_names[f] + (accumulated ? ":accumulated" : "");
  r.grid = spec_.source_grid;
  r.global_size = spec_.source_size;
  r.components = spec_.specs[f].components;
  r.type = accumulated ? Datatype::Float64 : spec_.specs[f].type;
  r.time = time;
  return r;
}

void Link::read_restart() {
  if (!keeps_state()) return;
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  const std::string path = restart_path();
  int exists = 0;
  const Comm& source_comm = route_->source;
  if (source_comm.rank() == 0) exists = std::ifstream(path).good() ? 1 : 0;
  FERRY_CALL_MPI(MPI_Bcast(&exists, 1, MPI_INT, 0, source_comm.get()));
  // Without a file, a lagged exchange takes its first value from a put at start - lag.
  // With one, everything the exchange keeps must be in it (other exchanges may share it).
  if (!exists) return;
  try {
    if (spec_.config->lag > 0) {
      for (std::size_t f = 0; f < spec_.specs.size(); ++f) {
        FieldFile::read(source_comm, path, restart_record(f, false, clock_.start()),
                        *spec_.source_layout, staging(f));
        hand_over(f, staging(f), engine_holds_);
      }
      send(clock_.start());
      if (engine_holds_) staging_ = {};  // the engine holds the values now
      next_put_ = clock_.next(next_put_);
    }
    // The accumulation the previous run left, for the coupling time next_put_.
    for (std::size_t f = 0; f < transforms_.size(); ++f) {
      std::vector<double> state(value_count(spec_.source_layout, f));
      const FieldRecord stored = FieldFile::read(source_comm, path, restart_record(f, true, next_put_),
                                                 *spec_.source_layout, state.data());
      const auto count = stored.numbers.find("count");
      FERRY_CHECK(count != stored.numbers.end() && count->second >= 0, Errc::Io, "restart file \"",
                  path, "\": field \"", stored.name,
                  "\" has no valid attribute \"count\" (the puts accumulated); it was not written "
                  "by ferry's coupler. Move it away to start without it");
      transforms_[f].restore(state, static_cast<int>(count->second));
    }
  } catch (const Error& e) {
    throw Error(e.code(), detail::cat(where(*spec_.config), ": ", e.what()), e.rank());
  }
}

RestartPart Link::restart_part() const {
  RestartPart part;
  if (!spec_.source_member || !keeps_state()) return part;
  auto add = [&](FieldRecord record, const void* values) {
    part.records.push_back(std::move(record));
    part.layouts.push_back(spec_.source_layout);
    part.data.push_back(values);
  };
  for (std::size_t f = 0; f < spec_.specs.size(); ++f) {
    // The last coupling put's target lies past the run: the next run gets it first.
    if (pending_)
      add(restart_record(f, false, clock_.target_of(next_put_ - clock_.period())),
          staging_[f].data());
    // Every accumulation, even of no put yet, so that its absence means a wrong file.
    if (f < transforms_.size()) {
      FieldRecord r = restart_record(f, true, next_put_);
      r.numbers["count"] = transforms_[f].count();
      add(std::move(r), transforms_[f].state().data());
    }
  }
  return part;
}

void Link::complete() {
  if (!in_flight_) return;
  const double waited = watchdog_.wait([&] { return exchange_->test(); }, [&] {
    return detail::cat("finalize: exchange \"", name(), "\" has waited ", watchdog_.timeout(),
                       " s for component \"", target_component(), "\" to get the value for ",
                       in_flight_target_, " s. Every coupling time before the run's end must be got");
  });
  timers_.add(name(), TimerCategory::Wait, waited);
  exchange_->end();
  in_flight_ = false;
}

void Link::close() {
  if (exchange_) exchange_->close();
}

}  // namespace ferry::coupling
