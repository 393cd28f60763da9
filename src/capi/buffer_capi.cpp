// The C API of the time-series buffer: ferry::TimeSeriesBuffer and its readers
// behind the opaque ferry_buffer and ferry_buffer_reader handles.
#include <vector>

#include "capi/c_call.hpp"
#include "ferry/buffer.h"
#include "ferry/time_series_buffer.hpp"

struct ferry_buffer {
  static constexpr const char* kWhat = "buffer";
  ferry::TimeSeriesBuffer buffer;
};

struct ferry_buffer_reader {
  static constexpr const char* kWhat = "reader";
  ferry::TimeSeriesReader reader;
};

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;
using ferry::detail::create_handle;
using ferry::detail::destroy_handle;

// ndims values from a C array. A NULL array or ndims < 1 is this rank's own
// programming error and fails here; every other check is made (and agreed) in C++.
std::vector<std::int64_t> dims_array(int ndims, const int64_t* values, const CCall& call,
                                     const char* what) {
  FERRY_CHECK(ndims >= 1 && values != nullptr, ferry::Errc::Arg, call.function(),
              ": need ndims >= 1 and a non-NULL ", what, " array; got ndims ", ndims);
  return std::vector<std::int64_t>(values, values + ndims);
}

ferry::Box box_of(int ndims, const int64_t* start, const int64_t* end, const CCall& call) {
  return {dims_array(ndims, start, call, "start"), dims_array(ndims, end, call, "end")};
}

}  // namespace

extern "C" {

int ferry_buffer_expose(MPI_Comm parent, int ndims, const int64_t* shape, const int64_t* start,
                        const int64_t* end, int type, int capacity_unit, int64_t capacity,
                        int mode, ferry_buffer** buffer) {
  return create_handle("ferry_buffer_expose", buffer, [&](const CCall& call) {
    FERRY_CHECK(capacity_unit == FERRY_BUFFER_STEPS || capacity_unit == FERRY_BUFFER_BYTES,
                ferry::Errc::Arg, call.function(), ": capacity_unit is ", capacity_unit,
                "; use FERRY_BUFFER_STEPS or FERRY_BUFFER_BYTES");
    const ferry::Box box = box_of(ndims, start, end, call);
    const auto limit = capacity_unit == FERRY_BUFFER_STEPS ? ferry::Capacity::steps(capacity)
                                                           : ferry::Capacity::bytes(capacity);
    return new ferry_buffer{ferry::TimeSeriesBuffer::expose(
        parent, dims_array(ndims, shape, call, "shape"), box, static_cast<ferry::Datatype>(type),
        limit, static_cast<ferry::BufferMode>(mode))};
  });
}

int ferry_buffer_connect(MPI_Comm parent, int group, ferry_buffer** buffer) {
  return create_handle("ferry_buffer_connect", buffer, [&](const CCall&) {
    return new ferry_buffer{ferry::TimeSeriesBuffer::connect(parent, group)};
  });
}

int ferry_buffer_load(ferry_buffer* buffer, const void* data, int64_t step) {
  return c_call("ferry_buffer_load",
                [&](const CCall& call) { call.handle(buffer).buffer.load(data, step); });
}

int ferry_buffer_close(ferry_buffer* buffer) {
  return c_call("ferry_buffer_close", [&](const CCall& call) { call.handle(buffer).buffer.close(); });
}

int ferry_buffer_get_capacity(const ferry_buffer* buffer, int64_t* steps) {
  return c_call("ferry_buffer_get_capacity", [&](const CCall& call) {
    call.out(steps) = call.handle(buffer).buffer.capacity_steps();
  });
}

int ferry_buffer_get_type(const ferry_buffer* buffer, int* type) {
  return c_call("ferry_buffer_get_type", [&](const CCall& call) {
    call.out(type) = static_cast<int>(call.handle(buffer).buffer.type());
  });
}

int ferry_buffer_attach(ferry_buffer* buffer, MPI_Comm worker_comm, int ndims,
                        const int64_t* start, const int64_t* end, ferry_buffer_reader** reader) {
  return create_handle("ferry_buffer_attach", reader, [&](const CCall& call) {
    auto& b = call.handle(buffer);
    return new ferry_buffer_reader{b.buffer.attach(worker_comm, box_of(ndims, start, end, call))};
  });
}

int ferry_buffer_reader_read(ferry_buffer_reader* reader, void* out, int64_t max_steps,
                             int64_t* first_step, int64_t* n_steps, int64_t* lost_steps) {
  return c_call("ferry_buffer_reader_read", [&](const CCall& call) {
    const ferry::ReadResult result = call.handle(reader).reader.read(out, max_steps);
    if (first_step) *first_step = result.first_step;
    if (n_steps) *n_steps = result.n_steps;
    if (lost_steps) *lost_steps = result.lost_steps;
  });
}

int ferry_buffer_reader_get_steps(const ferry_buffer_reader* reader, int64_t* steps) {
  return c_call("ferry_buffer_reader_get_steps", [&](const CCall& call) {
    call.copy_out(call.handle(reader).reader.steps(), steps, "steps");
  });
}

int ferry_buffer_reader_values_per_step(const ferry_buffer_reader* reader, int64_t* values) {
  return c_call("ferry_buffer_reader_values_per_step", [&](const CCall& call) {
    call.out(values) = call.handle(reader).reader.values_per_step();
  });
}

int ferry_buffer_reader_done(ferry_buffer_reader* reader) {
  return c_call("ferry_buffer_reader_done",
                [&](const CCall& call) { call.handle(reader).reader.done(); });
}

int ferry_buffer_reader_destroy(ferry_buffer_reader** reader) {
  return destroy_handle("ferry_buffer_reader_destroy", reader);
}

int ferry_buffer_free(ferry_buffer* buffer) {
  return c_call("ferry_buffer_free",
                [&](const CCall& call) { call.handle(buffer).buffer.free(); });
}

int ferry_buffer_destroy(ferry_buffer** buffer) {
  return destroy_handle("ferry_buffer_destroy", buffer);
}

}  // extern "C"
