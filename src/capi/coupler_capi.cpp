// The C API of the coupler: ferry::Coupler behind the opaque ferry_coupler handle.
#include <algorithm>
#include <string>
#include <vector>

#include "capi/c_enums.hpp"
#include "capi/firewall.hpp"
#include "capi/layout_handle.hpp"
#include "ferry/coupler.hpp"
#include "ferry/ferry.h"

struct ferry_coupler {
  ferry::Coupler coupler;
};

namespace {

using ferry::detail::deref;
using ferry::detail::guarded;
using ferry::detail::output;

// C strings are checked here so a NULL name gets a message instead of a crash.
std::string text(const char* s, const char* function, const char* what) {
  FERRY_CHECK(s != nullptr, ferry::Errc::Arg, function, ": ", what, " is NULL");
  return s;
}

ferry::Coupler& coupler_of(ferry_coupler* c, const char* function) {
  return deref(c, function, "coupler").coupler;
}
const ferry::Coupler& coupler_of(const ferry_coupler* c, const char* function) {
  return deref(c, function, "coupler").coupler;
}

}  // namespace

extern "C" {

int ferry_coupler_create(MPI_Comm comm, int ncomponents, const char* const* components,
                         const char* config_path, ferry_coupler** coupler) {
  const char* function = "ferry_coupler_create";
  return guarded(function, [&] {
    output(coupler, function) = nullptr;
    // NULL pointers are programming errors found on this rank alone; everything the
    // constructor checks (names, the configuration) fails alike on every rank.
    std::vector<std::string> names;
    FERRY_CHECK(ncomponents >= 0 && (ncomponents == 0 || components != nullptr), ferry::Errc::Arg,
                function, ": need ncomponents >= 0 and a non-NULL components array; got ",
                ncomponents);
    for (int i = 0; i < ncomponents; ++i)
      names.push_back(text(components[i], function, "component name"));
    *coupler = new ferry_coupler{
        ferry::Coupler(comm, names, text(config_path, function, "config_path"))};
  });
}

int ferry_coupler_local_comm(const ferry_coupler* coupler, const char* component, MPI_Comm* comm) {
  const char* function = "ferry_coupler_local_comm";
  return guarded(function, [&] {
    output(comm, function) =
        coupler_of(coupler, function).local_comm(text(component, function, "component"));
  });
}

int ferry_coupler_def_grid(ferry_coupler* coupler, const char* component, const char* name,
                           int64_t nx, int64_t ny, int* grid) {
  const char* function = "ferry_coupler_def_grid";
  return guarded(function, [&] {
    int& id = output(grid, function);
    id = -1;  // what a failed call leaves
    id = coupler_of(coupler, function)
             .def_grid(text(component, function, "component"), text(name, function, "grid name"),
                       nx, ny)
             .value;
  });
}

int ferry_coupler_def_partition(ferry_coupler* coupler, int grid, const char* name,
                                const ferry_layout* layout, int* partition) {
  const char* function = "ferry_coupler_def_partition";
  return guarded(function, [&] {
    int& id = output(partition, function);
    id = -1;
    id = coupler_of(coupler, function)
             .def_partition(ferry::GridId{grid}, text(name, function, "partition name"),
                            deref(layout, function, "layout").layout)
             .value;
  });
}

int ferry_coupler_set_coordinates(ferry_coupler* coupler, int partition, const double* lon,
                                  const double* lat) {
  return guarded("ferry_coupler_set_coordinates", [&] {
    coupler_of(coupler, "ferry_coupler_set_coordinates")
        .set_coordinates(ferry::PartitionId{partition}, lon, lat);
  });
}

int ferry_coupler_set_corners(ferry_coupler* coupler, int partition, int ncorner,
                              const double* lon, const double* lat) {
  return guarded("ferry_coupler_set_corners", [&] {
    coupler_of(coupler, "ferry_coupler_set_corners")
        .set_corners(ferry::PartitionId{partition}, ncorner, lon, lat);
  });
}

int ferry_coupler_set_areas(ferry_coupler* coupler, int partition, const double* area) {
  return guarded("ferry_coupler_set_areas", [&] {
    coupler_of(coupler, "ferry_coupler_set_areas").set_areas(ferry::PartitionId{partition}, area);
  });
}

int ferry_coupler_set_mask(ferry_coupler* coupler, int partition, const int32_t* mask) {
  return guarded("ferry_coupler_set_mask", [&] {
    coupler_of(coupler, "ferry_coupler_set_mask").set_mask(ferry::PartitionId{partition}, mask);
  });
}

int ferry_coupler_partition_points(const ferry_coupler* coupler, int partition, int64_t* points) {
  const char* function = "ferry_coupler_partition_points";
  return guarded(function, [&] {
    output(points, function) =
        coupler_of(coupler, function).partition_points(ferry::PartitionId{partition});
  });
}

int ferry_coupler_def_field(ferry_coupler* coupler, int partition, const char* name,
                            int direction, int type, int bundle, int* field) {
  const char* function = "ferry_coupler_def_field";
  return guarded(function, [&] {
    int& id = output(field, function);
    id = -1;
    FERRY_CHECK(direction == FERRY_FIELD_OUT || direction == FERRY_FIELD_IN, ferry::Errc::Arg,
                function, ": unknown direction ", direction,
                ". Use FERRY_FIELD_OUT or FERRY_FIELD_IN");
    const ferry::Datatype datatype = ferry::detail::datatype_of(type, function);
    id = coupler_of(coupler, function)
             .def_field(ferry::PartitionId{partition}, text(name, function, "field name"),
                        static_cast<ferry::FieldDirection>(direction),
                        datatype, bundle)
             .value;
  });
}

int ferry_coupler_field_values(const ferry_coupler* coupler, int field, int64_t* values) {
  const char* function = "ferry_coupler_field_values";
  return guarded(function, [&] {
    output(values, function) = coupler_of(coupler, function).field_values(ferry::FieldId{field});
  });
}

int ferry_coupler_field_type(const ferry_coupler* coupler, int field, int* type) {
  const char* function = "ferry_coupler_field_type";
  return guarded(function, [&] {
    output(type, function) =
        static_cast<int>(coupler_of(coupler, function).field_type(ferry::FieldId{field}));
  });
}

int ferry_coupler_enddef(ferry_coupler* coupler) {
  return guarded("ferry_coupler_enddef",
                 [&] { coupler_of(coupler, "ferry_coupler_enddef").enddef(); });
}

int ferry_coupler_put(ferry_coupler* coupler, int field, double time, const void* data,
                      int* status) {
  return guarded("ferry_coupler_put", [&] {
    const int done =
        coupler_of(coupler, "ferry_coupler_put").put(ferry::FieldId{field}, time, data);
    if (status != nullptr) *status = done;
  });
}

int ferry_coupler_get(ferry_coupler* coupler, int field, double time, void* data, int* status) {
  return guarded("ferry_coupler_get", [&] {
    const int done =
        coupler_of(coupler, "ferry_coupler_get").get(ferry::FieldId{field}, time, data);
    if (status != nullptr) *status = done;
  });
}

int ferry_coupler_load(ferry_coupler* coupler, const char* buffer, const void* data, int64_t step) {
  const char* function = "ferry_coupler_load";
  return guarded(function, [&] {
    coupler_of(coupler, function).load(text(buffer, function, "buffer name"), data, step);
  });
}

int ferry_coupler_read(ferry_coupler* coupler, const char* buffer, void* out, int64_t max_steps,
                       int64_t* first_step, int64_t* n_steps, int64_t* lost_steps) {
  const char* function = "ferry_coupler_read";
  return guarded(function, [&] {
    const ferry::ReadResult result =
        coupler_of(coupler, function).read(text(buffer, function, "buffer name"), out, max_steps);
    if (first_step != nullptr) *first_step = result.first_step;
    if (n_steps != nullptr) *n_steps = result.n_steps;
    if (lost_steps != nullptr) *lost_steps = result.lost_steps;
  });
}

int ferry_coupler_read_steps(ferry_coupler* coupler, const char* buffer, int64_t size,
                             int64_t* steps) {
  const char* function = "ferry_coupler_read_steps";
  return guarded(function, [&] {
    const std::string name = text(buffer, function, "buffer name");
    const std::vector<std::int64_t>& last = coupler_of(coupler, function).read_steps(name);
    const auto count = static_cast<int64_t>(last.size());
    FERRY_CHECK(size >= count && (steps != nullptr || count == 0), ferry::Errc::ArgSize, function,
                ": steps has room for ", size, " values, but the last read of buffer \"", name,
                "\" returned ", count,
                " steps. Pass room for the max_steps given to ferry_coupler_read");
    std::copy(last.begin(), last.end(), steps);
  });
}

int ferry_coupler_buffer_values(const ferry_coupler* coupler, const char* buffer, int64_t* values) {
  const char* function = "ferry_coupler_buffer_values";
  return guarded(function, [&] {
    output(values, function) =
        coupler_of(coupler, function).buffer_values(text(buffer, function, "buffer name"));
  });
}

int ferry_coupler_buffer_type(const ferry_coupler* coupler, const char* buffer, int* type) {
  const char* function = "ferry_coupler_buffer_type";
  return guarded(function, [&] {
    output(type, function) = static_cast<int>(
        coupler_of(coupler, function).buffer_type(text(buffer, function, "buffer name")));
  });
}

int ferry_coupler_finalize(ferry_coupler* coupler) {
  return guarded("ferry_coupler_finalize",
                 [&] { coupler_of(coupler, "ferry_coupler_finalize").finalize(); });
}

int ferry_coupler_destroy(ferry_coupler** coupler) {
  return guarded("ferry_coupler_destroy", [&] {
    if (coupler == nullptr) return;
    delete *coupler;
    *coupler = nullptr;
  });
}

}  // extern "C"
