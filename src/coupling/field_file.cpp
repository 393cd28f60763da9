#include "coupling/field_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <system_error>
#include <utility>

#include "coupling/field_variable.hpp"
#include "io/netcdf_file.hpp"
#include "io/rank_order.hpp"
#include "ferry/exchange.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

using ferry::detail::agree_on;
using ferry::detail::cat;

// One field's values in this rank's share of the file: a contiguous run of points
// (this rank's part of Layout::block over the ranks), all components of each.
struct Slab {
  std::int64_t offset = 0;
  std::int64_t points = 0;
  std::vector<unsigned char> values;
};

Layout block_of(const Comm& comm, const FieldRecord& record) {
  return Layout::block(record.global_size, comm.size(), comm.rank());
}

Slab slab_of(const Layout& block, const FieldRecord& record) {
  Slab slab;
  slab.points = block.local_size();
  slab.offset = slab.points > 0 ? block.ids().front() : 0;
  slab.values.resize(static_cast<std::size_t>(slab.points) *
                     static_cast<std::size_t>(record.components) * datatype_size(record.type));
  return slab;
}

// Start and count of a slab in the variable (time slice first for a time series).
std::pair<std::vector<std::size_t>, std::vector<std::size_t>> hyperslab(
    const Slab& slab, const FieldRecord& record, std::optional<std::int64_t> slice) {
  std::vector<std::size_t> start;
  std::vector<std::size_t> count;
  if (slice) {
    start.push_back(static_cast<std::size_t>(*slice));
    count.push_back(1);
  }
  start.push_back(static_cast<std::size_t>(slab.offset));
  count.push_back(static_cast<std::size_t>(slab.points));
  if (record.components > 1) {
    start.push_back(0);
    count.push_back(static_cast<std::size_t>(record.components));
  }
  return {start, count};
}

// This rank's arguments; run on every rank and agreed, so all fail alike.
void check_arguments(const char* caller, const std::vector<FieldRecord>& records,
                     const std::vector<const Layout*>& layouts,
                     const std::vector<const void*>& data, int rank) {
  FERRY_CHECK(layouts.size() == records.size() && data.size() == records.size(), Errc::ArgSize,
              caller, ": ", records.size(), " records, ", layouts.size(), " layouts and ",
              data.size(), " data pointers on rank ", rank,
              ". Pass one layout and one data pointer per record");
  FERRY_CHECK(!records.empty(), Errc::Arg, caller, ": no fields given. Pass at least one record");
  std::set<std::string> names;
  for (std::size_t f = 0; f < records.size(); ++f) {
    const FieldRecord& r = records[f];
    FERRY_CHECK(!r.name.empty(), Errc::Arg, caller, ": record ", f,
                " has an empty name. Name every field");
    FERRY_CHECK(names.insert(r.name).second, Errc::Arg, caller, ": field \"", r.name,
                "\" is given twice. Give each field once");
    FERRY_CHECK(r.global_size >= 1, Errc::Arg, caller, ": field \"", r.name, "\" has global_size ",
                r.global_size, ". A field has at least one point");
    FERRY_CHECK(r.components >= 1, Errc::Arg, caller, ": field \"", r.name, "\" has ",
                r.components, " components. A field has at least one component per point");
    FERRY_CHECK(datatype_size(r.type) > 0, Errc::Arg, caller, ": field \"", r.name,
                "\" has unknown type ", static_cast<int>(r.type),
                ". Use Datatype::Float64, Float32, Int32 or Int64");
    FERRY_CHECK(std::isfinite(r.time), Errc::Arg, caller, ": field \"", r.name, "\" has time ",
                r.time, ". Give the model time in seconds as a finite number");
    for (const auto& number : r.numbers) check_number_name(caller, r.name, number.first);
    FERRY_CHECK(layouts[f] != nullptr, Errc::Arg, caller, ": the layout of field \"", r.name,
                "\" is null on rank ", rank,
                ". Pass Layout::none(global_size) on ranks that hold none of the field");
    FERRY_CHECK(layouts[f]->global_size() == r.global_size, Errc::ArgSize, caller, ": field \"",
                r.name, "\" has global_size ", r.global_size, " but its layout on rank ", rank,
                " has ", layouts[f]->global_size(),
                " points. Build the layout with the field's global size");
    FERRY_CHECK(data[f] != nullptr || layouts[f]->local_size() == 0, Errc::Arg, caller,
                ": the data of field \"", r.name, "\" is null on rank ", rank, ", which holds ",
                layouts[f]->local_size(), " of its points. Pass the field's values");
  }
}

// FNV-1a over everything a record says, to compare records across ranks cheaply.
class Fingerprint {
 public:
  void add(const void* bytes, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      hash_ ^= static_cast<const unsigned char*>(bytes)[i];
      hash_ *= 1099511628211ULL;
    }
  }
  template <class T>
  void add_value(T value) {
    add(&value, sizeof value);
  }
  void add_text(const std::string& text) {
    add_value(text.size());
    add(text.data(), text.size());
  }
  std::uint64_t value() const noexcept { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

// The records are logically collective: ranks that disagree would write different
// files or run different numbers of exchanges (and hang), so compare them first.
void check_same_records(const Comm& comm, const char* caller,
                        const std::vector<FieldRecord>& records) {
  Fingerprint print;
  print.add_value(records.size());
  for (const FieldRecord& r : records) {
    print.add_text(r.name);
    print.add_text(r.grid);
    print.add_value(r.global_size);
    print.add_value(r.components);
    print.add_value(static_cast<int>(r.type));
    print.add_value(r.time);
    print.add_value(r.numbers.size());
    for (const auto& [name, value] : r.numbers) {
      print.add_text(name);
      print.add_value(value);
    }
  }
  // max(h) == ~max(~h) == min(h) exactly when every rank has the same h.
  const std::uint64_t mine[2] = {print.value(), ~print.value()};
  std::uint64_t most[2] = {0, 0};
  FERRY_CALL_MPI(MPI_Allreduce(mine, most, 2, MPI_UINT64_T, MPI_MAX, comm.get()));
  FERRY_CHECK(most[0] == ~most[1], Errc::Arg, caller,
              ": the field records differ between ranks (name, grid, global_size, components, "
              "type, time or numbers). The call is logically collective: pass the same records "
              "on every rank");
}

// Fields that share a layout object on every rank form one group and move in one
// exchange (one plan instead of one per field). Each rank proposes the first field
// with the same layout as its group's leader; only proposals every rank makes stand.
std::vector<std::vector<std::size_t>> layout_groups(const Comm& comm,
                                                    const std::vector<const Layout*>& layouts) {
  const std::size_t n = layouts.size();
  std::vector<int> proposal(2 * n);  // leaders, then negated leaders: MAX gives max and -min
  for (std::size_t f = 0; f < n; ++f) {
    const auto leader = static_cast<int>(
        std::find(layouts.begin(), layouts.end(), layouts[f]) - layouts.begin());
    proposal[f] = leader;
    proposal[n + f] = -leader;
  }
  std::vector<int> most(2 * n);
  FERRY_CALL_MPI(MPI_Allreduce(proposal.data(), most.data(),
                               ferry::detail::mpi_count<int>(2 * n, "FieldFile: fields"), MPI_INT,
                               MPI_MAX, comm.get()));
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::size_t> group_of(n);
  for (std::size_t f = 0; f < n; ++f) {
    const bool agreed = most[f] == -most[n + f];
    const std::size_t leader = agreed ? static_cast<std::size_t>(most[f]) : f;
    if (leader == f) {
      group_of[f] = groups.size();
      groups.emplace_back();
    } else {
      group_of[f] = group_of[leader];
    }
    groups[group_of[f]].push_back(f);
  }
  return groups;
}

// An exchange moving a group of fields between two layouts; its errors name the
// fields and add `note` (what the layouts must satisfy here).
Exchange group_exchange(const Comm& comm, const char* caller,
                        const std::vector<FieldRecord>& records,
                        const std::vector<std::size_t>& group, const Layout& from,
                        const Layout& to, const char* note) {
  std::vector<FieldSpec> specs;
  std::vector<std::string> names;
  for (std::size_t f : group) {
    specs.push_back({records[f].type, records[f].components});
    names.push_back(cat("\"", records[f].name, "\""));
  }
  try {
    return Exchange(comm.get(), from, to, std::move(specs), "p2p");
  } catch (const Error& e) {
    throw Error(e.code(),
                cat(caller, group.size() == 1 ? ": field " : ": fields ",
                    ferry::detail::list_first(names, 8), note, ": ", e.what()),
                e.rank());
  }
}

}  // namespace

// The exchanges that move fields from their layouts to this rank's slabs of a file:
// one per group of fields that share a layout.
struct SlabRoutes {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<Layout> blocks;       // per group: this rank's slab
  std::vector<Exchange> exchanges;  // per group
};

namespace {

// Collective: the routes of `records` from `layouts` to the slabs.
SlabRoutes slab_routes(const Comm& comm, const char* caller,
                       const std::vector<FieldRecord>& records,
                       const std::vector<const Layout*>& layouts) {
  SlabRoutes routes;
  routes.groups = layout_groups(comm, layouts);
  for (const std::vector<std::size_t>& group : routes.groups) {
    routes.blocks.push_back(block_of(comm, records[group.front()]));
    routes.exchanges.push_back(
        group_exchange(comm, caller, records, group, *layouts[group.front()], routes.blocks.back(),
                       " (to be written, every point must be held by exactly one rank)"));
  }
  return routes;
}

// Moves every field from its layout to this rank's slab of the file. Collective.
std::vector<Slab> to_slabs(SlabRoutes& routes, const std::vector<FieldRecord>& records,
                           const std::vector<const void*>& data) {
  std::vector<Slab> slabs(records.size());
  for (std::size_t g = 0; g < routes.groups.size(); ++g) {
    std::vector<const void*> from;
    std::vector<void*> to;
    for (std::size_t f : routes.groups[g]) {
      slabs[f] = slab_of(routes.blocks[g], records[f]);
      from.push_back(data[f]);
      to.push_back(slabs[f].values.data());
    }
    routes.exchanges[g].execute(from.data(), to.data());
  }
  return slabs;
}

// Moves every field from this rank's slab of the file to its layout. Collective.
void from_slabs(const Comm& comm, const char* caller, const std::vector<FieldRecord>& records,
                const std::vector<const Layout*>& layouts, const std::vector<Slab>& slabs,
                const std::vector<void*>& data) {
  for (const std::vector<std::size_t>& group : layout_groups(comm, layouts)) {
    const Layout block = block_of(comm, records[group.front()]);
    std::vector<const void*> from;
    std::vector<void*> to;
    for (std::size_t f : group) {
      from.push_back(slabs[f].values.data());
      to.push_back(data[f]);
    }
    group_exchange(comm, caller, records, group, block, *layouts[group.front()], "")
        .execute(from.data(), to.data());
  }
}

// Writes this rank's slabs into the existing file (one time slice of it for a time series).
void write_slabs(const char* caller, const std::string& path,
                 const std::vector<FieldRecord>& records, const std::vector<Slab>& slabs,
                 std::optional<std::int64_t> slice) {
  const bool any = std::any_of(slabs.begin(), slabs.end(), [](const Slab& s) { return s.points; });
  if (!any) return;
  io::NetcdfFile file(caller, path, io::NetcdfFile::Mode::Write);
  for (std::size_t f = 0; f < records.size(); ++f) {
    if (slabs[f].points == 0) continue;
    const std::optional<int> varid = file.find_var(records[f].name);
    FERRY_CHECK(varid, Errc::Io, caller, ": variable \"", records[f].name, "\" vanished from \"",
                path, "\" while it was written. Do not touch the file during the run");
    const auto [start, count] = hyperslab(slabs[f], records[f], slice);
    file.put_vara(*varid, start, count, slabs[f].values.data());
  }
  file.close();
}

std::string quoted_list(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  for (std::string& name : names) name = cat("\"", name, "\"");
  return ferry::detail::list_first(names, 8);
}

// The time coordinate of an existing output file: a double variable over the unlimited dimension.
int time_coordinate(const io::NetcdfFile& file, const std::string& what) {
  const std::optional<int> varid = file.find_var(kTimeName);
  const bool ok = varid && file.var_type(*varid) == NC_DOUBLE &&
                  file.var_dims(*varid).size() == 1 &&
                  file.dim_is_unlimited(file.var_dims(*varid).front());
  FERRY_CHECK(ok, Errc::Io, file.caller(), ": ", what,
              " has no time coordinate (a double variable \"time\" over the unlimited "
              "dimension), so it is not an output file of FieldFile::append. Append to "
              "another file");
  return *varid;
}

// Creates a new output file for `records`, with a first slice for their time. Returns 0.
std::int64_t create_output(const char* caller, const std::string& path,
                           const std::vector<FieldRecord>& records) {
  try {
    io::NetcdfFile file(caller, path, io::NetcdfFile::Mode::Create);
    define_file_attributes(file);
    const int time_dim = file.define_dim(kTimeName, NC_UNLIMITED);
    const int time_var = file.define_var(kTimeName, NC_DOUBLE, {time_dim});
    file.put_text_att(time_var, "long_name", "model time");
    file.put_text_att(time_var, "units", "s");
    for (const FieldRecord& r : records) define_field(file, r, time_dim);
    file.end_define();
    const double time = records.front().time;
    file.put_vara(time_var, {0}, {1}, &time);
    file.close();
  } catch (const Error&) {
    // A half-defined file would make the next append fail with a misleading message.
    std::remove(path.c_str());
    throw;
  }
  return 0;
}

// Checks that an existing output file holds exactly `records` as time series, adds
// a slice for their time and returns its index.
std::int64_t extend_output(const char* caller, const std::string& path,
                           const std::vector<FieldRecord>& records) {
  const std::string what = cat("output file \"", path, "\"");
  io::NetcdfFile file(caller, path, io::NetcdfFile::Mode::Write);
  check_format_version(file);
  const int time_var = time_coordinate(file, what);

  std::vector<std::string> held;
  for (const std::string& name : file.var_names())
    if (name != kTimeName) held.push_back(name);
  std::vector<std::string> given;
  for (const FieldRecord& r : records) given.push_back(r.name);
  std::sort(held.begin(), held.end());
  std::sort(given.begin(), given.end());
  FERRY_CHECK(held == given, Errc::Arg, caller, ": ", what, " holds fields ", quoted_list(held),
              "; this call appends ", quoted_list(given),
              ". Append the same fields every time, or use another file for these");
  for (const FieldRecord& r : records) {
    const StoredField field = read_field(file, what, r.name);
    FERRY_CHECK(field.time_series, Errc::Io, caller, ": ", what, ": field \"", r.name,
                "\" has no time dimension. Append to another file");
    check_same_field(caller, what, field.record, r,
                             "Append to a new output file, or move this one away");
  }

  const double time = records.front().time;
  const std::size_t slices = file.dim_length(file.var_dims(time_var).front());
  if (slices > 0) {
    double last = 0;
    file.get_vara(time_var, {slices - 1}, {1}, &last);
    FERRY_CHECK(time > last, Errc::Arg, caller, ": ", what, " ends at time ",
                time_text(last), " s; cannot append time ", time_text(time),
                " s after it. Times must increase: move the old output file away before "
                "running again");
  }
  file.put_vara(time_var, {slices}, {1}, &time);
  file.close();
  return static_cast<std::int64_t>(slices);
}

}  // namespace

void FieldFile::write(const Comm& comm, const std::string& path,
                      const std::vector<FieldRecord>& records,
                      const std::vector<const Layout*>& layouts,
                      const std::vector<const void*>& data) {
  try {
    begin_parts(comm, path);
    write_part(comm, path, records, layouts, data);
    end_parts(comm, path);
  } catch (const Error&) {
    // Every rank raises the same error; rank 0 just cleans up after it.
    if (comm.rank() == 0) discard_parts(path);
    throw;
  }
}

// Write beside the old file and rename at the end: a failed or interrupted write
// never destroys the previous restart.
std::string FieldFile::partial_path(const std::string& path) { return path + ".partial"; }

void FieldFile::begin_parts(const Comm& user_comm, const std::string& path) {
  const char* const caller = "FieldFile::write";
  const Comm comm = Comm::dup(user_comm.get());
  agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    io::NetcdfFile file(caller, partial_path(path), io::NetcdfFile::Mode::Create);
    define_file_attributes(file);
    file.end_define();
    file.close();
  });
}

void FieldFile::write_part(const Comm& user_comm, const std::string& path,
                           const std::vector<FieldRecord>& records,
                           const std::vector<const Layout*>& layouts,
                           const std::vector<const void*>& data) {
  const char* const caller = "FieldFile::write";
  const Comm comm = Comm::dup(user_comm.get());
  agree_on(comm, [&] { check_arguments(caller, records, layouts, data, comm.rank()); });
  check_same_records(comm, caller, records);
  SlabRoutes routes = slab_routes(comm, caller, records, layouts);
  const std::vector<Slab> slabs = to_slabs(routes, records, data);
  const std::string partial = partial_path(path);
  agree_on(comm, [&] {
    if (comm.rank() != 0) return;
    io::NetcdfFile file(caller, partial, io::NetcdfFile::Mode::Write);
    for (const FieldRecord& r : records) {
      FERRY_CHECK(!file.find_var(r.name), Errc::Arg, caller, ": field \"", r.name,
                  "\" is written twice into \"", path,
                  "\". Give each field of a restart file its own name");
      define_field(file, r, -1);
    }
    file.close();
  });
  io::in_rank_order(comm, [&] { write_slabs(caller, partial, records, slabs, std::nullopt); });
}

void FieldFile::end_parts(const Comm& user_comm, const std::string& path) {
  const Comm comm = Comm::dup(user_comm.get());
  io::move_into_place(comm, "FieldFile::write", partial_path(path), path);
}

void FieldFile::discard_parts(const std::string& path) noexcept {
  std::remove(partial_path(path).c_str());
}

FieldRecord FieldFile::read(const Comm& comm, const std::string& path,
                            const FieldRecord& expected, const Layout& layout, void* data) {
  return read(comm, path, std::vector<FieldRecord>{expected}, {&layout}, {data}).front();
}

std::vector<FieldRecord> FieldFile::read(const Comm& user_comm, const std::string& path,
                                         const std::vector<FieldRecord>& expected,
                                         const std::vector<const Layout*>& layouts,
                                         const std::vector<void*>& data) {
  const char* const caller = "FieldFile::read";
  const Comm comm = Comm::dup(user_comm.get());
  agree_on(comm, [&] {
    check_arguments(caller, expected, layouts, std::vector<const void*>(data.begin(), data.end()),
                    comm.rank());
  });
  check_same_records(comm, caller, expected);

  std::vector<Slab> slabs;
  for (const FieldRecord& r : expected) slabs.push_back(slab_of(block_of(comm, r), r));
  const std::string what = cat("restart file \"", path, "\"");
  std::vector<FieldRecord> stored;
  // Every rank opens the file read-only (concurrent readers are fine) and checks it.
  agree_on(comm, [&] {
    io::NetcdfFile file(caller, path, io::NetcdfFile::Mode::Read);
    check_format_version(file);
    for (std::size_t f = 0; f < expected.size(); ++f) {
      const FieldRecord& want = expected[f];
      const StoredField field = read_field(
          file, what, want.name,
          cat(datatype_name(want.type), " x ", want.components, " on grid \"", want.grid, "\" (",
              want.global_size, " points) for time ", time_text(want.time), " s"));
      FERRY_CHECK(!field.time_series, Errc::Io, caller, ": ", what, ": field \"", want.name,
                  "\" is a time series written by FieldFile::append, not a restart. Read a file "
                  "written by FieldFile::write");
      check_same_field(caller, what, field.record, want,
                               "Check that the file is the restart of this configuration");
      FERRY_CHECK(field.record.time == want.time, Errc::Arg, caller, ": ", what,
                  " holds field \"", want.name, "\" for time ",
                  time_text(field.record.time), " s, expected ",
                  time_text(want.time), " s. Delete the file or start the run at ",
                  time_text(field.record.time));
      if (slabs[f].points > 0) {
        const auto [start, count] = hyperslab(slabs[f], want, std::nullopt);
        file.get_vara(field.varid, start, count, slabs[f].values.data());
      }
      stored.push_back(field.record);
    }
  });
  from_slabs(comm, caller, expected, layouts, slabs, data);
  return stored;
}

void FieldFile::append(const Comm& user_comm, const std::string& path,
                       const std::vector<FieldRecord>& records,
                       const std::vector<const Layout*>& layouts,
                       const std::vector<const void*>& data) {
  const Comm comm = Comm::dup(user_comm.get());
  FieldOutput(comm, path).append(records, layouts, data);
}

FieldOutput::FieldOutput(const Comm& comm, std::string path)
    : comm_(Comm::view(comm.get())), path_(std::move(path)) {}

FieldOutput::~FieldOutput() = default;

void FieldOutput::append(const std::vector<FieldRecord>& records,
                         const std::vector<const Layout*>& layouts,
                         const std::vector<const void*>& data) {
  const char* const caller = "FieldFile::append";
  agree_on(comm_, [&] {
    check_arguments(caller, records, layouts, data, comm_.rank());
    for (const FieldRecord& r : records) {
      FERRY_CHECK(r.name != kTimeName, Errc::Arg, caller,
                  ": a field is named \"time\", the name of an output file's time coordinate. "
                  "Rename the field");
      FERRY_CHECK(r.time == records.front().time, Errc::Arg, caller, ": field \"", r.name,
                  "\" is for time ", time_text(r.time), " s and field \"",
                  records.front().name, "\" for ", time_text(records.front().time),
                  " s, but one call appends one time slice. Append fields of other times in "
                  "another call, to another file");
    }
  });
  check_same_records(comm_, caller, records);
  // The routes of the previous record serve while every rank gives the same layout
  // objects and field types.
  std::vector<std::pair<Datatype, int>> specs;
  for (const FieldRecord& r : records) specs.emplace_back(r.type, r.components);
  int changed = routes_ && layouts == layouts_ && specs == specs_ ? 0 : 1;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &changed, 1, MPI_INT, MPI_MAX, comm_.get()));
  if (changed) {
    routes_.reset();
    routes_ = std::make_unique<SlabRoutes>(slab_routes(comm_, caller, records, layouts));
    layouts_ = layouts;
    specs_ = std::move(specs);
  }
  const std::vector<Slab> slabs = to_slabs(*routes_, records, data);

  std::int64_t slice = 0;
  agree_on(comm_, [&] {
    if (comm_.rank() != 0) return;
    std::error_code error;
    slice = std::filesystem::exists(path_, error) ? extend_output(caller, path_, records)
                                                  : create_output(caller, path_, records);
  });
  FERRY_CALL_MPI(MPI_Bcast(&slice, 1, MPI_INT64_T, 0, comm_.get()));
  io::in_rank_order(comm_, [&] { write_slabs(caller, path_, records, slabs, slice); });
}

}  // namespace ferry::coupling
