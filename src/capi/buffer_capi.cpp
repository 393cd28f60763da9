// The C API of the time-series buffer: ferry::TimeSeriesBuffer and its readers
// behind the opaque ferry_buffer and ferry_buffer_reader handles.
#include <vector>

#include "capi/firewall.hpp"
#include "ferry/buffer.h"
#include "ferry/time_series_buffer.hpp"

struct ferry_buffer {
  ferry::TimeSeriesBuffer buffer;
};

struct ferry_buffer_reader {
  ferry::TimeSeriesReader reader;
};

namespace {

using ferry::detail::deref;
using ferry::detail::guarded;
using ferry::detail::output;

// ndims values from a C array. A NULL array or ndims < 1 is this rank's own
// programming error and fails here; every other check is made (and agreed) in C++.
std::vector<std::int64_t> dims_array(int ndims, const int64_t* values, const char* function,
                                     const char* what) {
  FERRY_CHECK(ndims >= 1 && values != nullptr, ferry::Errc::Arg, function,
              ": need ndims >= 1 and a non-NULL ", what, " array; got ndims ", ndims);
  return std::vector<std::int64_t>(values, values + ndims);
}

}  // namespace

extern "C" {

int ferry_buffer_expose(MPI_Comm parent, int ndims, const int64_t* shape, const int64_t* start,
                        const int64_t* end, int type, int capacity_unit, int64_t capacity,
                        int mode, ferry_buffer** buffer) {
  const char* function = "ferry_buffer_expose";
  return guarded(function, [&] {
    output(buffer, function) = nullptr;
    FERRY_CHECK(capacity_unit == FERRY_BUFFER_STEPS || capacity_unit == FERRY_BUFFER_BYTES,
                ferry::Errc::Arg, function, ": capacity_unit is ", capacity_unit,
                "; use FERRY_BUFFER_STEPS or FERRY_BUFFER_BYTES");
    const ferry::Box box{dims_array(ndims, start, function, "start"),
                         dims_array(ndims, end, function, "end")};
    const auto limit = capacity_unit == FERRY_BUFFER_STEPS ? ferry::Capacity::steps(capacity)
                                                           : ferry::Capacity::bytes(capacity);
    *buffer = new ferry_buffer{ferry::TimeSeriesBuffer::expose(
        parent, dims_array(ndims, shape, function, "shape"), box,
        static_cast<ferry::Datatype>(type), limit, static_cast<ferry::BufferMode>(mode))};
  });
}

int ferry_buffer_connect(MPI_Comm parent, int group, ferry_buffer** buffer) {
  const char* function = "ferry_buffer_connect";
  return guarded(function, [&] {
    output(buffer, function) = nullptr;
    *buffer = new ferry_buffer{ferry::TimeSeriesBuffer::connect(parent, group)};
  });
}

int ferry_buffer_load(ferry_buffer* buffer, const void* data, int64_t step) {
  const char* function = "ferry_buffer_load";
  return guarded(function, [&] { deref(buffer, function, "buffer").buffer.load(data, step); });
}

int ferry_buffer_close(ferry_buffer* buffer) {
  const char* function = "ferry_buffer_close";
  return guarded(function, [&] { deref(buffer, function, "buffer").buffer.close(); });
}

int ferry_buffer_get_capacity(const ferry_buffer* buffer, int64_t* steps) {
  const char* function = "ferry_buffer_get_capacity";
  return guarded(function, [&] {
    output(steps, function) = deref(buffer, function, "buffer").buffer.capacity_steps();
  });
}

int ferry_buffer_get_type(const ferry_buffer* buffer, int* type) {
  const char* function = "ferry_buffer_get_type";
  return guarded(function, [&] {
    output(type, function) = static_cast<int>(deref(buffer, function, "buffer").buffer.type());
  });
}

int ferry_buffer_attach(ferry_buffer* buffer, MPI_Comm worker_comm, int ndims,
                        const int64_t* start, const int64_t* end, ferry_buffer_reader** reader) {
  const char* function = "ferry_buffer_attach";
  return guarded(function, [&] {
    output(reader, function) = nullptr;
    auto& b = deref(buffer, function, "buffer");
    const ferry::Box box{dims_array(ndims, start, function, "start"),
                         dims_array(ndims, end, function, "end")};
    *reader = new ferry_buffer_reader{b.buffer.attach(worker_comm, box)};
  });
}

int ferry_buffer_reader_read(ferry_buffer_reader* reader, void* out, int64_t max_steps,
                             int64_t* first_step, int64_t* n_steps, int64_t* lost_steps) {
  const char* function = "ferry_buffer_reader_read";
  return guarded(function, [&] {
    const ferry::ReadResult result = deref(reader, function, "reader").reader.read(out, max_steps);
    if (first_step) *first_step = result.first_step;
    if (n_steps) *n_steps = result.n_steps;
    if (lost_steps) *lost_steps = result.lost_steps;
  });
}

int ferry_buffer_reader_get_steps(const ferry_buffer_reader* reader, int64_t* steps) {
  const char* function = "ferry_buffer_reader_get_steps";
  return guarded(function, [&] {
    const auto& last = deref(reader, function, "reader").reader.steps();
    if (last.empty()) return;
    FERRY_CHECK(steps != nullptr, ferry::Errc::Arg, function, ": steps is NULL; need room for ",
                last.size(), " values");
    for (std::size_t i = 0; i < last.size(); ++i) steps[i] = last[i];
  });
}

int ferry_buffer_reader_values_per_step(const ferry_buffer_reader* reader, int64_t* values) {
  const char* function = "ferry_buffer_reader_values_per_step";
  return guarded(function, [&] {
    output(values, function) = deref(reader, function, "reader").reader.values_per_step();
  });
}

int ferry_buffer_reader_done(ferry_buffer_reader* reader) {
  const char* function = "ferry_buffer_reader_done";
  return guarded(function, [&] { deref(reader, function, "reader").reader.done(); });
}

int ferry_buffer_reader_destroy(ferry_buffer_reader** reader) {
  return guarded("ferry_buffer_reader_destroy", [&] {
    if (reader == nullptr) return;
    delete *reader;
    *reader = nullptr;
  });
}

int ferry_buffer_destroy(ferry_buffer** buffer) {
  return guarded("ferry_buffer_destroy", [&] {
    if (buffer == nullptr) return;
    delete *buffer;
    *buffer = nullptr;
  });
}

}  // extern "C"
