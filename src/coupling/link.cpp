#include "coupling/link.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>

#include "config/rules.hpp"
#include "coupling/entry_weights.hpp"
#include "coupling/field_file.hpp"
#include "coupling/oasis_field_file.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/log.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

using detail::ScopedTimer;
using detail::TimerCategory;

constexpr double kNever = -std::numeric_limits<double>::infinity();

// `values` (n of `type`, float64 or float32) times the factor plus the offset of
// `scaling`, in double precision as OASIS computes BLASOLD and BLASNEW.
void scale_values(const config::Scaling& scaling, Datatype type, void* values, std::size_t n) {
  if (type == Datatype::Float32) {
    auto* v = static_cast<float*>(values);
    for (std::size_t i = 0; i < n; ++i)
      v[i] = static_cast<float>(static_cast<double>(v[i]) * scaling.factor + scaling.offset);
  } else {
    auto* v = static_cast<double*>(values);
    for (std::size_t i = 0; i < n; ++i) v[i] = v[i] * scaling.factor + scaling.offset;
  }
}

// Waits under `watchdog` until `request` completes; returns the seconds waited.
double wait_for(const Watchdog& watchdog, MPI_Request& request,
                const std::function<std::string()>& what) {
  return watchdog.wait(
      [&] {
        int done = 0;
        FERRY_CALL_MPI(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
        return done != 0;
      },
      what);
}

// The members of `side` for which `holds` as a communicator of their own (Comm() elsewhere).
Comm holders_of(const Comm& side, bool holds) {
  MPI_Comm comm = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Comm_split(side.get(), holds ? 0 : MPI_UNDEFINED, side.rank(), &comm));
  return holds ? Comm::adopt(comm) : Comm();
}

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
      file_format_(config.file_format),
      zero_missing_restarts_(config.zero_missing_restarts),
      outputs_started_(2, 0),
      watchdog_(watchdog),
      imbalance_timer_(config.imbalance_timer),
      timers_(timers),
      route_(std::move(route)),
      regrid_(std::move(regrid)) {
  ScopedTimer timer(timers_, name(), TimerCategory::Setup);
  const std::size_t fields = spec_.specs.size();
  const config::ExchangeConfig& c = *spec_.config;
  if (route_->link.valid() && !output_only()) {
    const config::CouplingEngine engine = config::coupling_engine(c);
    std::optional<Error> error;
    try {
      exchange_ = std::make_unique<Exchange>(route_->share, route_->plan, spec_.specs,
                                             engine.name, engine.options);
    } catch (const Error& e) {
      error = Error(e.code(), detail::cat(where(c), ": ", e.what()), e.rank());
    }
    // Raised alike on every rank of the exchange, or on one rank alone after the
    // engine's last collective call (the route's share leaves those to us): agreed here
    // before this constructor's collective calls, else by the coupler over the run with
    // the other exchanges' errors.
    if (collectives_after_exchange(c))
      detail::agree(route_->link, error);
    else if (error)
      throw *error;
    // Output files, CHECKIN/CHECKOUT and scaling need every field's values at once,
    // which the engine does not show; a product reads and writes whole fields too.
    engine_holds_ = exchange_->capabilities().holds_fields && !c.output && !c.regrid.enabled() &&
                    !c.check_in && !c.check_out && c.source_scaling.identity() &&
                    c.target_scaling.identity();
  }
  regrid_before_ = regrid_ && c.regrid.map_on == MapOn::Src;
  regrid_after_ = regrid_ && c.regrid.map_on == MapOn::Dst;
  if (regrid_before_ && spec_.source_member)
    own_source_holders_ = holders_of(route_->source, spec_.source_layout->local_size() > 0);
  if (regrid_after_ && spec_.target_member)
    own_target_holders_ = holders_of(route_->target, spec_.target_layout->local_size() > 0);
  send_from_.assign(fields, nullptr);
  receive_into_.assign(fields, nullptr);

  if (spec_.source_member) {
    sends_caller_array_ = !engine_holds_ && fields == 1 && c.transform == config::Transform::Instant &&
                          c.lag <= 0 && c.source_scaling.identity();
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
    if (!engine_holds_ && (fields > 1 || spec_.source_member || c.regrid.enabled() ||
                           !c.target_scaling.identity()))
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

int Link::inquire(std::size_t index, double time) const {
  if (clock_.before(time, next_put_) || !clock_.same(time, next_put_))
    return clock_.before(time, next_put_) && !transforms_.empty() ? kStatusTransformed : kStatusNothing;
  int status = output_only() ? kStatusNothing : kStatusSent;
  const bool others_ready = std::count(ready_.begin(), ready_.end(), 0) <= (ready_[index] ? 0 : 1);
  if (!others_ready) return status | kStatusWaitGroup;
  if (!clock_.received_in_run(clock_.target_of(next_put_))) status |= kStatusToRestart;
  if (spec_.config->output) status |= kStatusOutput;
  return status;
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

std::size_t Link::gradients_taken() const {
  // A weight file's count is its number of weight columns less one, known where the
  // product runs on the source side (the only side that takes gradients).
  if (regrid_before_) return regrid_->gradient_count();
  return gradient_count(spec_.config->regrid);
}

bool Link::takes_gradients() const { return gradients_taken() > 0; }

void Link::check_gradients(std::size_t index, std::size_t count) const {
  const config::ExchangeConfig& c = *spec_.config;
  const std::size_t takes = gradients_taken();
  const bool file = c.regrid.source == config::WeightSource::File;
  if (count == 0 && !file) return;  // computed from the field
  FERRY_CHECK(count == takes, Errc::Arg, "put(\"", spec_.source_names[index], "\"): ", count,
              " gradients given; exchange \"", name(), "\" (",
              file ? "weight file \"" + c.regrid.weights + "\", " + std::to_string(takes + 1) + " weights per link"
                   : std::string("method ") + config::method_name(c.regrid.source),
              ") takes ", takes,
              file ? ": one per weight column after the first, as OASIS3-MCT 4.0 requires (the "
                     "fields given to oasis_put match the file's weights)"
                   : "");
  FERRY_CHECK(c.regrid.map_on == MapOn::Src && c.lag <= 0 && c.transform == config::Transform::Instant &&
                  spec_.specs[index].type == Datatype::Float64,
              Errc::Arg, "put(\"", spec_.source_names[index], "\"): exchange \"", name(),
              "\" takes gradients from the put only when it maps on the source side, has no lag and "
              "no time transform, and the field is float64. Put the field alone: its gradients are "
              "then computed from it");
}

int Link::put(std::size_t index, double time, const void* data, const PutExtras& extras) {
  const bool write_restart = extras.write_restart;
  ScopedTimer timer(timers_, name(), TimerCategory::Put);
  last_put_[index] = time;
  if (clock_.before(time, next_put_)) {
    if (transforms_.empty()) return kStatusNothing;
    {
      ScopedTimer transform(timers_, name(), TimerCategory::Transform);
      transforms_[index].add(data);
    }
    if (write_restart) write_transform_restart(index, time);
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
  if (write_restart) write_coupling_restart(index, time, value);
  if (!extras.gradients.empty() && takes_gradients()) {
    const auto values = value_count(spec_.source_layout, index);
    gradients_.resize(extras.gradients.size(), std::vector<std::vector<double>>(spec_.specs.size()));
    for (std::size_t k = 0; k < extras.gradients.size(); ++k) {
      const auto* g = static_cast<const double*>(extras.gradients[k]);
      gradients_[k][index].assign(g, g + values);
    }
    gradients_put_.resize(spec_.specs.size(), 0);
    gradients_put_[index] = 1;
  }
  hand_over(index, value, into_engine);
  ready_[index] = 1;
  if (std::find(ready_.begin(), ready_.end(), 0) != ready_.end())
    return kStatusSent | kStatusWaitGroup;

  int status = output_only() ? kStatusNothing : kStatusSent;
  if (clock_.received_in_run(target)) {
    scale_sent();
    if (spec_.config->check_in)
      check_values(source_holders(), "CHECKIN", next_put_, send_values(), spec_.source_names,
                   *spec_.source_layout);
    if (!output_only()) {
      time_imbalance(source_holders(), source_component());
      send(target);
    }
    if (spec_.config->output) status |= output_source(next_put_);
  } else {
    pending_ = true;  // for the next run: written to the restart file at finalize
    status |= kStatusToRestart;
    if (spec_.config->output) status |= output_source(next_put_);
  }
  std::fill(ready_.begin(), ready_.end(), 0);
  next_put_ = clock_.next(next_put_);
  return status;
}

void Link::time_imbalance(const Comm& side, const std::string& component) {
  // Over the ranks that hold points: the others may skip their puts and gets.
  if (!imbalance_timer_ || !side.valid()) return;
  // What a rank waits here is its component's slower ranks catching up; without the
  // barrier it would show up later as waiting for the partner or inside the transfer.
  // Non-blocking, so that the watchdog turns a rank that never comes into an error.
  MPI_Request request = MPI_REQUEST_NULL;
  FERRY_CALL_MPI(MPI_Ibarrier(side.get(), &request));
  const double waited = wait_for(watchdog_, request, [&] {
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
    const bool gradients = regrid_->gradient_count() > 0 && gradients_given(target - clock_.lag());
    ScopedTimer product(timers_, name(), TimerCategory::Transform);
    if (gradients)
      regrid_->apply(send_from_.data(), gradients_, regrid_->block().data());
    else
      regrid_->apply(send_from_.data(), regrid_->block().data());
    from = regrid_->block().data();
    gradients_put_.assign(gradients_put_.size(), 0);
  }
  wait_to_begin("put", target - clock_.lag());
  ScopedTimer timer(timers_, name(), TimerCategory::Transfer);
  exchange_->begin(from, receive_into_.data());
  in_flight_ = true;
  in_flight_target_ = target;
}

bool Link::gradients_given(double put_time) {
  const bool mine = !gradients_put_.empty() &&
                    std::count(gradients_put_.begin(), gradients_put_.end(), 0) == 0;
  // {given, not given} summed over the source ranks: they must agree.
  int counts[2] = {mine ? 1 : 0, mine ? 0 : 1};
  MPI_Request request = MPI_REQUEST_NULL;
  FERRY_CALL_MPI(MPI_Iallreduce(MPI_IN_PLACE, counts, 2, MPI_INT, MPI_SUM, route_->source.get(), &request));
  const double waited = wait_for(watchdog_, request, [&] {
    return detail::cat("put for exchange \"", name(), "\" at time ", put_time, " s has waited ",
                       watchdog_.timeout(), " s for the other ranks of component \"",
                       source_component(), "\" to put the exchange's fields");
  });
  timers_.add(name(), TimerCategory::Wait, waited);
  FERRY_CHECK(counts[0] == 0 || counts[1] == 0, Errc::Arg, "put for exchange \"", name(),
              "\" at time ", put_time, " s: ", counts[0], " ranks of component \"", source_component(),
              "\" gave the fields' gradients and ", counts[1],
              " did not. Give them on every rank, or on none");
  return counts[0] > 0;
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
    time_imbalance(target_holders(), target_component());
    receive(time, index, data);
    std::vector<const void*> values;
    for (std::size_t f = 0; f < spec_.specs.size(); ++f)
      values.push_back(received_.empty() ? data : received_[f].data());
    scale_received();
    if (spec_.config->check_out)
      check_values(target_holders(), "CHECKOUT", time, values, spec_.target_names,
                   *spec_.target_layout);
    if (spec_.config->output)
      status |= output(target_holders(), "target", time, values, spec_.target_names,
                       spec_.target_grid, spec_.target_size, *spec_.target_layout);
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

void Link::scale_sent() {
  const config::Scaling& scaling = spec_.config->source_scaling;
  if (scaling.identity()) return;  // as OASIS, which leaves the values alone then
  ScopedTimer timer(timers_, name(), TimerCategory::Transform);
  // The link's copies: the constructor makes the link copy the puts when it scales.
  for (std::size_t f = 0; f < spec_.specs.size(); ++f)
    scale_values(scaling, spec_.specs[f].type, staging(f), value_count(spec_.source_layout, f));
}

void Link::scale_received() {
  const config::Scaling& scaling = spec_.config->target_scaling;
  if (scaling.identity()) return;
  ScopedTimer timer(timers_, name(), TimerCategory::Transform);
  for (std::size_t f = 0; f < received_.size(); ++f)
    scale_values(scaling, spec_.specs[f].type, received_[f].data(),
                 value_count(spec_.target_layout, f));
}

std::vector<const void*> Link::send_values() {
  // The link's copies (staging) unless the put's array is sent as it is.
  std::vector<const void*> values = send_from_;
  for (std::size_t f = 0; f < values.size(); ++f)
    if (values[f] == nullptr) values[f] = staging(f);
  return values;
}

int Link::output_source(double put_time) {
  // Ferry's files stamp the source's values with their target time, OASIS's with the put's.
  return output(source_holders(), "source", oasis_files() ? put_time : clock_.target_of(put_time),
                send_values(), spec_.source_names, spec_.source_grid, spec_.source_size,
                *spec_.source_layout);
}

void Link::check_values(const Comm& comm, const char* what, double time,
                        const std::vector<const void*>& data, const std::vector<std::string>& names,
                        const Layout& layout) {
  // Collective over the side's holders: the global minimum, maximum and sum of each field.
  if (!comm.valid()) return;
  for (std::size_t f = 0; f < names.size(); ++f) {
    const std::size_t n = value_count(&layout, f);
    double low = std::numeric_limits<double>::infinity(), high = -low, sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const double v = spec_.specs[f].type == Datatype::Float32
                           ? static_cast<double>(static_cast<const float*>(data[f])[i])
                           : static_cast<const double*>(data[f])[i];
      low = std::min(low, v);
      high = std::max(high, v);
      sum += v;
    }
    double extremes[2] = {low, -high};
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, extremes, 2, MPI_DOUBLE, MPI_MIN, comm.get()));
    FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm.get()));
    if (comm.rank() == 0)
      FERRY_LOG_INFO(-1, what, ": exchange \"", name(), "\", field \"", names[f], "\" at ", time,
                     " s: minimum ", extremes[0], ", maximum ", -extremes[1], ", sum ", sum);
  }
}

int Link::output(const Comm& comm, const char* side, double time,
                 const std::vector<const void*>& data, const std::vector<std::string>& names,
                 const std::string& grid, std::int64_t grid_size, const Layout& layout) {
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  if (!comm.valid()) return kStatusOutput;  // this rank holds none of the values
  if (oasis_files()) {
    // One file per field: <field>_<component>_<entry number, 2 digits>.nc.
    const bool source = side[0] == 's';
    const config::FieldRef& ref = source ? spec_.config->source : spec_.config->target;
    char number[16];
    std::snprintf(number, sizeof number, "%02d", spec_.config->number);
    char& started = outputs_started_[source ? 0 : 1];
    std::unique_ptr<RootGather>& gather = output_gathers_[source ? 0 : 1];
    if (!gather) gather = std::make_unique<RootGather>(comm, layout);
    for (std::size_t f = 0; f < names.size(); ++f)
      OasisFieldFile::append(*gather, output_directory_ + "/" + names[f] + "_" + ref.component + "_" + number + ".nc",
                             {names[f], ref.nx, ref.ny, spec_.specs[f].components, spec_.specs[f].type},
                             time, data[f], !started);
    started = 1;
    return kStatusOutput;
  }
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
  std::unique_ptr<FieldOutput>& file = outputs_[side[0] == 's' ? 0 : 1];
  if (!file)
    file = std::make_unique<FieldOutput>(comm, output_directory_ + "/" + name() + "_" + side + ".nc");
  file->append(records, layouts, data);
  return kStatusOutput;
}

bool Link::collectives_after_exchange(const config::ExchangeConfig& exchange) noexcept {
  return exchange.regrid.enabled() || keeps_state(exchange);
}

bool Link::keeps_state(const config::ExchangeConfig& exchange) noexcept {
  return exchange.lag > 0 || exchange.transform != config::Transform::Instant;
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
  if (oasis_files()) {
    read_oasis_restart();
    return;
  }
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
      scale_sent();
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

void Link::read_oasis_restart() {
  const config::ExchangeConfig& c = *spec_.config;
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  const std::string path = restart_path();
  const Comm& source_comm = route_->source;
  const bool exists = OasisFieldFile::exists(source_comm, path);
  // As OASIS: a lagged entry starts from the restart file, which must be there (or,
  // with $NNOREST, from zeros).
  FERRY_CHECK(exists || c.lag <= 0 || zero_missing_restarts_, Errc::Io, c.where.file, ":",
              c.where.line, ": entry ", c.number, " (", spec_.source_names.front(), " -> ",
              output_only() ? "output" : spec_.target_names.front(), ", LAG=", c.lag,
              ") starts from its restart file \"", path,
              "\", which does not exist. Write it before the run (the source's values at time ",
              clock_.start() - c.lag, "), or start from zeros with $NNOREST T");
  if (c.lag > 0) {
    for (std::size_t f = 0; f < spec_.specs.size(); ++f) {
      char* values = staging(f);  // allocates staging_
      if (!exists) {
        std::fill_n(values, staging_[f].size(), char{0});
      } else {
        const bool found = OasisFieldFile::read(
            source_comm, path,
            {spec_.source_names[f], c.source.nx, c.source.ny, spec_.specs[f].components, spec_.specs[f].type},
            *spec_.source_layout, values);
        FERRY_CHECK(found, Errc::Io, c.where.file, ":", c.where.line, ": restart file \"", path,
                    "\" has no variable \"", spec_.source_names[f], "\", which entry ", c.number,
                    " (LAG=", c.lag, ") starts from. Write it before the run");
      }
      hand_over(f, values, engine_holds_);
    }
    scale_sent();
    if (c.output) output_source(next_put_);
    send(clock_.start());
    if (engine_holds_) staging_ = {};
    next_put_ = clock_.next(next_put_);
  }
  if (!exists) return;
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "loc%06d_", c.number);
  int count = 0;
  if (transforms_.empty() || !OasisFieldFile::read_count(source_comm, path, std::string(prefix) + "cnt", count))
    return;
  for (std::size_t f = 0; f < transforms_.size(); ++f) {
    std::vector<double> state(value_count(spec_.source_layout, f));
    const bool found = OasisFieldFile::read(
        source_comm, path,
        {prefix + spec_.source_names[f], c.source.nx, c.source.ny, spec_.specs[f].components, Datatype::Float64},
        *spec_.source_layout, state.data());
    if (found) transforms_[f].restore(state, count);
  }
}

std::string Link::intermediate_restart_path(const char* kind, double time) const {
  // OASIS puts the prefix before the file's name: TC000003600_rst.nc.
  const std::string path = restart_path();
  const auto slash = path.rfind('/');
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "%s%09lld_", kind, static_cast<long long>(time));
  return path.substr(0, slash + 1) + prefix + path.substr(slash + 1);
}

void Link::write_coupling_restart(std::size_t index, double time, const void* value) {
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  const Comm& comm = source_holders();
  if (!comm.valid()) return;  // this rank holds none of the values
  const config::ExchangeConfig& c = *spec_.config;
  OasisFieldFile::write(comm, intermediate_restart_path("TC", time),
                        {spec_.source_names[index], c.source.nx, c.source.ny,
                         spec_.specs[index].components, spec_.specs[index].type},
                        *spec_.source_layout, value);
}

void Link::write_transform_restart(std::size_t index, double time) {
  ScopedTimer timer(timers_, name(), TimerCategory::Io);
  if (source_holders().valid())
    write_accumulation(source_holders(), intermediate_restart_path("TA", time), index);
}

// As OASIS: the entry's count of puts as loc<entry>_cnt, the field's state as loc<entry>_<field>.
void Link::write_accumulation(const Comm& comm, const std::string& path, std::size_t index) {
  const config::ExchangeConfig& c = *spec_.config;
  char prefix[32];
  std::snprintf(prefix, sizeof prefix, "loc%06d_", c.number);
  OasisFieldFile::write_count(comm, path, std::string(prefix) + "cnt", transforms_[index].count());
  OasisFieldFile::write(comm, path,
                        {prefix + spec_.source_names[index], c.source.nx, c.source.ny,
                         spec_.specs[index].components, Datatype::Float64},
                        *spec_.source_layout, transforms_[index].state().data());
}

void Link::write_oasis_restart() {
  const config::ExchangeConfig& c = *spec_.config;
  const Comm& comm = source_holders();
  if (!comm.valid()) return;  // this rank holds none of the values, and may have skipped its puts
  const std::string path = restart_path();
  for (std::size_t f = 0; f < spec_.specs.size(); ++f)
    if (pending_)
      OasisFieldFile::write(comm, path,
                            {spec_.source_names[f], c.source.nx, c.source.ny, spec_.specs[f].components,
                             spec_.specs[f].type},
                            *spec_.source_layout, staging_[f].data());
  if (transforms_.empty() || transforms_.front().count() == 0) return;
  for (std::size_t f = 0; f < transforms_.size(); ++f) write_accumulation(comm, path, f);
}

RestartPart Link::restart_part() const {
  RestartPart part;
  if (!spec_.source_member || !keeps_state() || oasis_files()) return part;
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

void Link::close_route() {
  if (route_->share) route_->share->close();
}

}  // namespace ferry::coupling
