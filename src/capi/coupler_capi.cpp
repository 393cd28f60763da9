// The C API of the coupler: ferry::Coupler behind the opaque ferry_coupler handle.
#include <algorithm>
#include <string>
#include <vector>

#include "capi/c_call.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/coupler.hpp"
#include "ferry/ferry.h"

struct ferry_coupler {
  static constexpr const char* kWhat = "coupler";
  ferry::Coupler coupler;
};

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;
using ferry::detail::create_handle;
using ferry::detail::destroy_handle;

// A field id, written -1 first: what a failed definition leaves.
template <class Define>
void define(int* id, const CCall& call, Define&& define_it) {
  int& out = call.out(id);
  out = -1;
  out = define_it().value;
}

}  // namespace

extern "C" {

int ferry_coupler_create(MPI_Comm comm, int ncomponents, const char* const* components,
                         const char* config_path, ferry_coupler** coupler) {
  return create_handle("ferry_coupler_create", coupler, [&](const CCall& call) {
    // NULL pointers are programming errors found on this rank alone; everything the
    // constructor checks (names, the configuration) fails alike on every rank.
    std::vector<std::string> names;
    FERRY_CHECK(ncomponents >= 0 && (ncomponents == 0 || components != nullptr), ferry::Errc::Arg,
                call.function(), ": need ncomponents >= 0 and a non-NULL components array; got ",
                ncomponents);
    for (int i = 0; i < ncomponents; ++i) names.push_back(call.text(components[i], "component name"));
    return new ferry_coupler{ferry::Coupler(comm, names, call.text(config_path, "config_path"))};
  });
}

int ferry_coupler_local_comm(const ferry_coupler* coupler, const char* component, MPI_Comm* comm) {
  return c_call("ferry_coupler_local_comm", [&](const CCall& call) {
    call.out(comm) = call.handle(coupler).coupler.local_comm(call.text(component, "component"));
  });
}

int ferry_coupler_def_grid(ferry_coupler* coupler, const char* component, const char* name,
                           int64_t nx, int64_t ny, int* grid) {
  return c_call("ferry_coupler_def_grid", [&](const CCall& call) {
    define(grid, call, [&] {
      return call.handle(coupler).coupler.def_grid(call.text(component, "component"),
                                                   call.text(name, "grid name"), nx, ny);
    });
  });
}

int ferry_coupler_def_partition(ferry_coupler* coupler, int grid, const char* name,
                                const ferry_layout* layout, int* partition) {
  return c_call("ferry_coupler_def_partition", [&](const CCall& call) {
    define(partition, call, [&] {
      return call.handle(coupler).coupler.def_partition(
          ferry::GridId{grid}, call.text(name, "partition name"), call.handle(layout).layout);
    });
  });
}

int ferry_coupler_set_coordinates(ferry_coupler* coupler, int partition, const double* lon,
                                  const double* lat) {
  return c_call("ferry_coupler_set_coordinates", [&](const CCall& call) {
    call.handle(coupler).coupler.set_coordinates(ferry::PartitionId{partition}, lon, lat);
  });
}

int ferry_coupler_set_corners(ferry_coupler* coupler, int partition, int ncorner,
                              const double* lon, const double* lat) {
  return c_call("ferry_coupler_set_corners", [&](const CCall& call) {
    call.handle(coupler).coupler.set_corners(ferry::PartitionId{partition}, ncorner, lon, lat);
  });
}

int ferry_coupler_set_areas(ferry_coupler* coupler, int partition, const double* area) {
  return c_call("ferry_coupler_set_areas", [&](const CCall& call) {
    call.handle(coupler).coupler.set_areas(ferry::PartitionId{partition}, area);
  });
}

int ferry_coupler_set_mask(ferry_coupler* coupler, int partition, const int32_t* mask) {
  return c_call("ferry_coupler_set_mask", [&](const CCall& call) {
    call.handle(coupler).coupler.set_mask(ferry::PartitionId{partition}, mask);
  });
}

int ferry_coupler_partition_points(const ferry_coupler* coupler, int partition, int64_t* points) {
  return c_call("ferry_coupler_partition_points", [&](const CCall& call) {
    call.out(points) =
        call.handle(coupler).coupler.partition_points(ferry::PartitionId{partition});
  });
}

int ferry_coupler_def_field(ferry_coupler* coupler, int partition, const char* name,
                            int direction, int type, int bundle, int* field) {
  return c_call("ferry_coupler_def_field", [&](const CCall& call) {
    define(field, call, [&] {
      const auto way = call.choice<ferry::FieldDirection>(direction, FERRY_FIELD_IN, "direction",
                                                          "FERRY_FIELD_OUT or FERRY_FIELD_IN");
      const ferry::Datatype datatype = call.datatype(type);
      return call.handle(coupler).coupler.def_field(
          ferry::PartitionId{partition}, call.text(name, "field name"), way, datatype, bundle);
    });
  });
}

int ferry_coupler_field_values(const ferry_coupler* coupler, int field, int64_t* values) {
  return c_call("ferry_coupler_field_values", [&](const CCall& call) {
    call.out(values) = call.handle(coupler).coupler.field_values(ferry::FieldId{field});
  });
}

int ferry_coupler_field_type(const ferry_coupler* coupler, int field, int* type) {
  return c_call("ferry_coupler_field_type", [&](const CCall& call) {
    call.out(type) = static_cast<int>(call.handle(coupler).coupler.field_type(ferry::FieldId{field}));
  });
}

int ferry_coupler_enddef(ferry_coupler* coupler) {
  return c_call("ferry_coupler_enddef",
                [&](const CCall& call) { call.handle(coupler).coupler.enddef(); });
}

int ferry_coupler_put(ferry_coupler* coupler, int field, double time, const void* data,
                      int* status) {
  return c_call("ferry_coupler_put", [&](const CCall& call) {
    const int done = call.handle(coupler).coupler.put(ferry::FieldId{field}, time, data);
    if (status != nullptr) *status = done;
  });
}

int ferry_coupler_get(ferry_coupler* coupler, int field, double time, void* data, int* status) {
  return c_call("ferry_coupler_get", [&](const CCall& call) {
    const int done = call.handle(coupler).coupler.get(ferry::FieldId{field}, time, data);
    if (status != nullptr) *status = done;
  });
}

int ferry_coupler_load(ferry_coupler* coupler, const char* buffer, const void* data, int64_t step) {
  return c_call("ferry_coupler_load", [&](const CCall& call) {
    call.handle(coupler).coupler.load(call.text(buffer, "buffer name"), data, step);
  });
}

int ferry_coupler_read(ferry_coupler* coupler, const char* buffer, void* out, int64_t max_steps,
                       int64_t* first_step, int64_t* n_steps, int64_t* lost_steps) {
  return c_call("ferry_coupler_read", [&](const CCall& call) {
    const ferry::ReadResult result =
        call.handle(coupler).coupler.read(call.text(buffer, "buffer name"), out, max_steps);
    if (first_step != nullptr) *first_step = result.first_step;
    if (n_steps != nullptr) *n_steps = result.n_steps;
    if (lost_steps != nullptr) *lost_steps = result.lost_steps;
  });
}

int ferry_coupler_read_steps(ferry_coupler* coupler, const char* buffer, int64_t size,
                             int64_t* steps) {
  return c_call("ferry_coupler_read_steps", [&](const CCall& call) {
    const std::string name = call.text(buffer, "buffer name");
    const std::vector<std::int64_t>& last = call.handle(coupler).coupler.read_steps(name);
    const auto count = static_cast<int64_t>(last.size());
    FERRY_CHECK(size >= count && (steps != nullptr || count == 0), ferry::Errc::ArgSize,
                call.function(), ": steps has room for ", size,
                " values, but the last read of buffer \"", name, "\" returned ", count,
                " steps. Pass room for the max_steps given to ferry_coupler_read");
    std::copy(last.begin(), last.end(), steps);
  });
}

int ferry_coupler_buffer_values(const ferry_coupler* coupler, const char* buffer, int64_t* values) {
  return c_call("ferry_coupler_buffer_values", [&](const CCall& call) {
    call.out(values) = call.handle(coupler).coupler.buffer_values(call.text(buffer, "buffer name"));
  });
}

int ferry_coupler_buffer_type(const ferry_coupler* coupler, const char* buffer, int* type) {
  return c_call("ferry_coupler_buffer_type", [&](const CCall& call) {
    call.out(type) = static_cast<int>(
        call.handle(coupler).coupler.buffer_type(call.text(buffer, "buffer name")));
  });
}

int ferry_coupler_finalize(ferry_coupler* coupler) {
  return c_call("ferry_coupler_finalize",
                [&](const CCall& call) { call.handle(coupler).coupler.finalize(); });
}

int ferry_coupler_abandon(ferry_coupler* coupler, const char* reason) {
  return c_call("ferry_coupler_abandon", [&](const CCall& call) {
    call.handle(coupler).coupler.abandon(call.text(reason, "reason"));
  });
}

int ferry_coupler_destroy(ferry_coupler** coupler) {
  return destroy_handle("ferry_coupler_destroy", coupler);
}

}  // extern "C"
