// OASIS3-MCT's API (ferry_oasis.h, called by mod_oasis and oasis_c.h) over ferry's Coupler. OASIS keeps
// one coupled component per process in module variables; so does this file, in one
// Session object per process.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "config/namcouple/namcouple.hpp"
#include "coupling/oasis_field_file.hpp"
#include "ferry/coupler.hpp"
#include "ferry_oasis.h"
#include "oasis_grid_files.hpp"
#include "oasis_partition.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::oasis {

namespace {

using ferry::detail::cat;

// mod_oasis_parameters' values (OASIS3-MCT 4.0 User Guide, section 2.2).
enum Kinfo {
  kOk = 0, kRecvd = 3, kSent = 4, kLocTrans = 5, kToRest = 6, kOutput = 7, kSentOut = 8,
  kToRestOut = 9, kInput = 11, kRecvOut = 12, kWaitGroup = 14
};
constexpr int kOasisOut = 20;
constexpr int kOasisIn = 21;
constexpr const char* kNamcouple = "namcouple";

struct Partition {
  std::string name;
  std::vector<std::int64_t> ids;  // until oasis_enddef moves them into `layout`
  Layout layout;  // from oasis_enddef, where the session reads the ids again (else the coupler's)
  std::int64_t points = 0;        // this rank's ids, counted
  int isize = 0;                 // 0: not given
  std::int64_t global_size = 0;  // after enddef, if a variable uses it
  ferry::PartitionId id;         // in the coupler, after enddef
};

struct Variable {
  std::string name;
  int partition = 0;  // index
  FieldDirection direction = FieldDirection::Out;
  int bundle = 1;
  FieldId field;       // in the coupler; none for an input field
  int input = -1;      // index of its INPUT entry in Session::inputs, or -1
  std::unique_ptr<Layout> layout;  // input fields: this rank's points, which it reads
};

class Session {
 public:
  std::string component;
  std::vector<std::string> world_names;      // each world rank's component
  std::vector<std::string> component_names;  // sorted; compid = position + 1
  MPI_Comm world = MPI_COMM_NULL;  // the user's (MPI_COMM_WORLD or commworld)
  MPI_Comm coupled = MPI_COMM_NULL;  // the ranks that couple (coupled = .true.)
  MPI_Comm local = MPI_COMM_NULL;    // this component's ranks
  bool initialised_mpi = false;
  bool is_coupled = false;
  int compid = 0;
  int debug = 0;
  std::unique_ptr<Coupler> coupler;
  config::Config config;  // the namcouple, as the coupler reads it
  std::vector<config::NamcoupleInput> inputs;  // its INPUT entries, which the session reads
  std::vector<Partition> partitions;
  std::vector<Variable> variables;
  GridWriter grids;
  // Grid data given by parts (il_part_id): per grid name and kind of data (ferry_oasis.h),
  // this rank's values in its partition's order.
  struct Piece {
    int partition = 0;
    std::int64_t nx = 0, ny = 0;
    int corners = 1;
    std::vector<double> a, b;
  };
  std::map<std::string, std::map<int, Piece>> pieces;
  bool writing_grids = false;
  bool ended = false;
  std::vector<double> scratch;

  void init(const std::string& name, bool couple, MPI_Comm user_world);
  int def_partition(const int* ig_paral, int length, int isize, const std::string& name);
  int def_var(const std::string& name, int part_id, int bundle, int kinout);
  void enddef();
  // fields: fld1, then the gradients OASIS's fld2.. give (see ferry_oasis_put).
  int put(int var_id, int date, const std::vector<const double*>& fields, bool write_restart);
  int get(int var_id, int date, double* field);
  int put_inquire(int var_id, int date);
  // The periods of the couplings `v` takes part in with `direction`.
  std::vector<double> periods(const Variable& v, FieldDirection direction) const;
  const Variable& variable(int var_id, const char* routine) const;
  std::int64_t points(const Variable& v) const {
    return partitions[static_cast<std::size_t>(v.partition)].points;
  }
  void terminate();
  MPI_Comm join(std::vector<std::string> names, std::vector<int>& root_ranks) const;
  int component_number(const std::string& name) const;
  int first_world_rank(const std::string& name) const;

 private:
  void assemble_pieces();
  void write_grids();
  void define_in_coupler();
  void define_inputs();
  int read_input(const Variable& v, int date, double* field);
  std::pair<std::int64_t, std::int64_t> grid_shape(int index, std::int64_t n) const;
  std::vector<std::pair<int, std::string>> remapped_partitions() const;
  void set_grid_points();
};

Session& session() {
  static Session s;
  return s;
}

thread_local std::string last_error;

// Runs an API call: errors become FERRY_OASIS_ERROR with the message on stderr.
template <class Call>
int guarded(const char* routine, Call&& call) {
  try {
    call();
    return FERRY_OASIS_OK;
  } catch (const Error& e) {
    last_error = cat(routine, ": ", e.what());
  } catch (const std::bad_alloc&) {
    last_error = cat(routine, ": out of memory");
  } catch (const std::exception& e) {
    last_error = cat(routine, ": ", e.what());
  }
  int rank = -1;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "ferry (OASIS API, rank %d): %s\n", rank, last_error.c_str());
  std::fflush(stderr);
  return FERRY_OASIS_ERROR;
}

Session& coupled_session(const char* routine) {
  Session& s = session();
  FERRY_CHECK(s.coupler != nullptr, Errc::State, "this process has no coupled component; call ",
              "oasis_init_comp (with coupled = .true.) before ", routine);
  return s;
}

// Collective over `comm`: every rank's `mine`, in rank order.
std::string gather_text(MPI_Comm comm, const std::string& mine) {
  int size = 0;
  FERRY_CALL_MPI(MPI_Comm_size(comm, &size));
  const int length = detail::mpi_count<int>(mine.size(), "names");
  std::vector<int> lengths(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size) + 1, 0);
  FERRY_CALL_MPI(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm));
  for (std::size_t r = 0; r < lengths.size(); ++r) displs[r + 1] = displs[r] + lengths[r];
  std::string all(static_cast<std::size_t>(displs.back()), '\0');
  FERRY_CALL_MPI(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(),
                                displs.data(), MPI_CHAR, comm));
  return all;
}

// The component names of every rank of `comm`, by rank.
std::vector<std::string> names_by_rank(MPI_Comm comm, const std::string& name) {
  constexpr int kWidth = 128;
  int size = 0;
  FERRY_CALL_MPI(MPI_Comm_size(comm, &size));
  FERRY_CHECK(name.size() < kWidth, Errc::Arg, "component name \"", name, "\" is longer than ",
              kWidth - 1, " characters");
  std::vector<char> mine(kWidth, '\0');
  std::copy(name.begin(), name.end(), mine.begin());
  std::vector<char> all(static_cast<std::size_t>(size) * kWidth);
  FERRY_CALL_MPI(MPI_Allgather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, comm));
  std::vector<std::string> names;
  for (int r = 0; r < size; ++r) names.emplace_back(all.data() + static_cast<std::size_t>(r) * kWidth);
  return names;
}

// Whether the entry computes its weights at enddef (SCRIPR), from the grids' points.
bool remapped_online(const config::ExchangeConfig& e) {
  return e.regrid.source != config::WeightSource::None && e.regrid.source != config::WeightSource::File;
}

// The namcouple's text, read on rank 0 of `comm` and given to every rank.
std::string read_namcouple_text(MPI_Comm comm) {
  int rank = 0;
  FERRY_CALL_MPI(MPI_Comm_rank(comm, &rank));
  std::string text;
  long long size = -1;
  if (rank == 0) {
    std::ifstream file(kNamcouple);
    if (file) {
      std::ostringstream content;
      content << file.rdbuf();
      text = content.str();
      size = static_cast<long long>(text.size());
    }
  }
  FERRY_CALL_MPI(MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, comm));
  FERRY_CHECK(size >= 0, Errc::Io, "cannot read \"", kNamcouple,
              "\" in the working directory of rank 0. Run from the directory holding the namcouple");
  text.resize(static_cast<std::size_t>(size));
  FERRY_CALL_MPI(MPI_Bcast(text.data(), detail::mpi_count<int>(size, "namcouple size"), MPI_CHAR, 0, comm));
  return text;
}

void Session::init(const std::string& name, bool couple, MPI_Comm user_world) {
  FERRY_CHECK(component.empty(), Errc::State, "component \"", component,
              "\" is already initialised on this process; OASIS3-MCT 4.0 runs one component per "
              "process");
  FERRY_CHECK(!name.empty(), Errc::Arg, "the component name is empty");
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    FERRY_CALL_MPI(MPI_Init(nullptr, nullptr));
    initialised_mpi = true;
  }
  world = user_world;
  component = name;
  is_coupled = couple;
  // Components are numbered by name, the same on every rank.
  world_names = names_by_rank(world, name);
  std::set<std::string> sorted(world_names.begin(), world_names.end());
  component_names.assign(sorted.begin(), sorted.end());
  const int color = static_cast<int>(
      std::find(component_names.begin(), component_names.end(), name) - component_names.begin());
  FERRY_CALL_MPI(MPI_Comm_split(world, color, 0, &local));
  compid = color + 1;
  FERRY_CALL_MPI(MPI_Comm_split(world, couple ? 0 : MPI_UNDEFINED, 0, &coupled));
  if (!couple) return;
  // Read and parsed once: the coupler takes the configuration, the session keeps the
  // INPUT entries and the exchanges' grid lines.
  config::NamcoupleRead read = config::read_namcouple(read_namcouple_text(coupled), kNamcouple);
  config = read.config;
  inputs = std::move(read.inputs);
  coupler = std::make_unique<Coupler>(coupled, std::vector<std::string>{name}, std::move(read.config));
  debug = coupler->debug_level();
}

int Session::def_partition(const int* ig_paral, int length, int isize, const std::string& name) {
  FERRY_CHECK(!ended, Errc::State, "partitions are defined before oasis_enddef");
  Partition p;
  p.ids = partition_ids(ig_paral, static_cast<std::size_t>(std::max(length, 0)));
  p.isize = isize;
  p.name = name.empty() ? cat("partition", partitions.size() + 1) : name;
  for (const Partition& other : partitions)
    FERRY_CHECK(other.name != p.name, Errc::Arg, "partition \"", p.name,
                "\" is defined twice on this rank; give partitions distinct names");
  if (isize > 0)
    for (std::int64_t id : p.ids)
      FERRY_CHECK(id < isize, Errc::ArgRange, "partition \"", p.name, "\" holds global index ", id + 1,
                  " but isize is ", isize);
  partitions.push_back(std::move(p));
  return static_cast<int>(partitions.size());
}

int Session::def_var(const std::string& name, int part_id, int bundle, int kinout) {
  FERRY_CHECK(!ended, Errc::State, "variables are defined before oasis_enddef");
  FERRY_CHECK(part_id >= 1 && part_id <= static_cast<int>(partitions.size()), Errc::Arg,
              "variable \"", name, "\": partition id ", part_id,
              " was not returned by oasis_def_partition on this rank");
  FERRY_CHECK(kinout == kOasisIn || kinout == kOasisOut, Errc::Arg, "variable \"", name,
              "\": kinout is ", kinout, "; use OASIS_In (", kOasisIn, ") or OASIS_Out (", kOasisOut, ")");
  FERRY_CHECK(bundle >= 0, Errc::Arg, "variable \"", name, "\": var_nodims(2) is ", bundle,
              "; give the number of fields in the bundle (1 for none)");
  const FieldDirection direction = kinout == kOasisOut ? FieldDirection::Out : FieldDirection::In;
  for (const Variable& v : variables)
    FERRY_CHECK(v.name != name, Errc::Arg, "variable \"", name, "\" is defined twice on this rank");
  Variable v;
  for (std::size_t i = 0; i < inputs.size() && direction == FieldDirection::In; ++i) {
    const auto& fields = inputs[i].fields;
    if (std::find(fields.begin(), fields.end(), name) != fields.end()) v.input = static_cast<int>(i);
  }
  // As OASIS: a field the namcouple does not name gets id -1 and takes part in nothing.
  if (v.input < 0 && coupler->field_periods(component, name, direction).empty()) return -1;
  v.name = name;
  v.partition = part_id - 1;
  v.direction = direction;
  v.bundle = std::max(bundle, 1);
  variables.push_back(std::move(v));
  return static_cast<int>(variables.size());
}

// Grids written by parts: each component's rank 0 gathers the pieces of its ranks and
// adds the whole grid to what it writes.
void Session::assemble_pieces() {
  // The grid names and kinds written by parts on any rank of the component.
  std::string mine;
  for (const auto& [name, kinds] : pieces)
    for (const auto& [kind, piece] : kinds) mine += cat(name, '\t', kind, '\n');
  int size = 0, rank = 0;
  FERRY_CALL_MPI(MPI_Comm_size(local, &size));
  FERRY_CALL_MPI(MPI_Comm_rank(local, &rank));
  std::set<std::pair<std::string, int>> written;
  std::istringstream lines(gather_text(local, mine));
  for (std::string line; std::getline(lines, line);) {
    const auto tab = line.find('\t');
    written.emplace(line.substr(0, tab), std::stoi(line.substr(tab + 1)));
  }
  for (const auto& [name, kind] : written) {
    // Each rank's ids, then its values: per point `width` doubles (a's corners, then b's).
    const auto found = pieces.find(name);
    const Piece* piece = nullptr;
    if (found != pieces.end() && found->second.count(kind)) piece = &found->second.at(kind);
    std::vector<double> ids_and_values;
    long long header[4] = {0, 0, 0, 0};  // points, nx, ny, corners
    if (piece) {
      const auto& ids = partitions[static_cast<std::size_t>(piece->partition)].ids;
      const auto points = ids.size();
      FERRY_CHECK(piece->a.size() == points * static_cast<std::size_t>(piece->corners), Errc::ArgSize,
                  "grid \"", name, "\" by parts: this process gives ", piece->a.size(),
                  " values for the ", points, " points of its partition");
      header[0] = static_cast<long long>(points);
      header[1] = piece->nx;
      header[2] = piece->ny;
      header[3] = piece->corners;
      for (std::size_t p = 0; p < points; ++p) {
        ids_and_values.push_back(static_cast<double>(ids[p]));
        for (int c = 0; c < piece->corners; ++c)
          ids_and_values.push_back(piece->a[static_cast<std::size_t>(c) * points + p]);
        for (int c = 0; !piece->b.empty() && c < piece->corners; ++c)
          ids_and_values.push_back(piece->b[static_cast<std::size_t>(c) * points + p]);
      }
    }
    std::vector<long long> headers(4 * static_cast<std::size_t>(size));
    FERRY_CALL_MPI(MPI_Gather(header, 4, MPI_LONG_LONG, headers.data(), 4, MPI_LONG_LONG, 0, local));
    const int count = detail::mpi_count<int>(ids_and_values.size(), "grid values");
    std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size) + 1, 0);
    FERRY_CALL_MPI(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, local));
    for (std::size_t r = 0; r < counts.size(); ++r) offsets[r + 1] = offsets[r] + counts[r];
    std::vector<double> gathered(static_cast<std::size_t>(offsets.back()));
    FERRY_CALL_MPI(MPI_Gatherv(ids_and_values.data(), count, MPI_DOUBLE, gathered.data(), counts.data(),
                               offsets.data(), MPI_DOUBLE, 0, local));
    if (rank != 0) continue;
    long long nx = 0, ny = 0, corners = 1;
    for (int r = 0; r < size; ++r)
      if (headers[4 * static_cast<std::size_t>(r)] > 0) {
        nx = headers[4 * static_cast<std::size_t>(r) + 1];
        ny = headers[4 * static_cast<std::size_t>(r) + 2];
        corners = headers[4 * static_cast<std::size_t>(r) + 3];
      }
    GridData& g = grids.grid(name, nx, ny);
    const auto n = static_cast<std::size_t>(nx * ny);
    const bool pair = kind <= 1;
    std::vector<double> a(n * static_cast<std::size_t>(corners)), b(pair ? a.size() : 0);
    const std::size_t width = static_cast<std::size_t>(corners) * (pair ? 2 : 1);
    for (std::size_t k = 0; k + width < gathered.size() + 1; k += width + 1) {
      const auto id = static_cast<std::size_t>(gathered[k]);
      FERRY_CHECK(id < n, Errc::ArgRange, "grid \"", name, "\" by parts: a partition holds point ",
                  id + 1, " of a grid of ", n);
      for (std::size_t c = 0; c < static_cast<std::size_t>(corners); ++c) {
        a[c * n + id] = gathered[k + 1 + c];
        if (pair) b[c * n + id] = gathered[k + 1 + static_cast<std::size_t>(corners) + c];
      }
    }
    switch (kind) {
      case 0: g.lon = a; g.lat = b; break;
      case 1: g.corners = static_cast<int>(corners); g.clo = a; g.cla = b; break;
      case 2: g.mask.assign(a.begin(), a.end()); break;
      case 3: g.area = a; break;
      case 4: g.frac = a; break;
      default: g.angle = a; break;
    }
  }
  pieces.clear();
}

void Session::write_grids() {
  // One rank at a time adds its grids to the files, in rank order.
  int rank = 0, size = 0;
  FERRY_CALL_MPI(MPI_Comm_rank(coupled, &rank));
  FERRY_CALL_MPI(MPI_Comm_size(coupled, &size));
  const int mine = grids.empty() ? 0 : 1;
  std::vector<int> writes(static_cast<std::size_t>(size));
  FERRY_CALL_MPI(MPI_Allgather(&mine, 1, MPI_INT, writes.data(), 1, MPI_INT, coupled));
  std::vector<int> writers;
  for (int r = 0; r < size; ++r)
    if (writes[static_cast<std::size_t>(r)]) writers.push_back(r);
  if (writers.empty()) return;
  const auto me = std::find(writers.begin(), writers.end(), rank);
  std::optional<Error> failure;
  if (me != writers.end()) {
    int token = 0;
    if (me != writers.begin())
      FERRY_CALL_MPI(MPI_Recv(&token, 1, MPI_INT, *(me - 1), 0, coupled, MPI_STATUS_IGNORE));
    failure = detail::error_of(Comm::view(coupled), [&] { grids.write("."); });
    if (me + 1 != writers.end()) FERRY_CALL_MPI(MPI_Send(&token, 1, MPI_INT, *(me + 1), 0, coupled));
  }
  detail::agree(Comm::view(coupled), failure);
  grids.clear();
}

void Session::define_in_coupler() {
  // A partition's global size: isize, else one more than the largest id any rank of the
  // component holds in a partition of that name.
  std::ostringstream text;
  for (const Partition& p : partitions) {
    std::int64_t top = p.isize;
    for (std::int64_t id : p.ids) top = std::max(top, id + 1);
    text << component << '\t' << p.name << '\t' << top << '\n';
  }
  std::map<std::string, std::int64_t> global_size;
  std::istringstream lines(gather_text(coupled, text.str()));
  for (std::string line; std::getline(lines, line);) {
    const auto tab = line.rfind('\t');
    auto& top = global_size[line.substr(0, tab)];
    top = std::max<std::int64_t>(top, std::stoll(line.substr(tab + 1)));
  }
  std::set<int> used;
  for (const Variable& v : variables) {
    Partition& p = partitions[static_cast<std::size_t>(v.partition)];
    p.global_size = std::max<std::int64_t>(global_size[component + "\t" + p.name], 1);
    if (v.input < 0) used.insert(v.partition);
  }
  // The ids move into the layout, and on to the coupler unless the session reads them
  // again (grid points for online remapping, INPUT fields): 8 bytes a point, a copy
  // would cost as much as reading the partition.
  std::set<int> reread;
  for (const auto& [index, grid] : remapped_partitions()) reread.insert(index);
  for (const Variable& v : variables)
    if (v.input >= 0) reread.insert(v.partition);
  for (Partition& p : partitions) {
    p.points = static_cast<std::int64_t>(p.ids.size());
    p.layout = Layout::points(p.global_size, std::move(p.ids));
  }
  for (int index : used) {
    Partition& p = partitions[static_cast<std::size_t>(index)];
    const std::int64_t n = p.global_size;
    const auto [nx, ny] = grid_shape(index, n);
    const GridId grid = coupler->def_grid(component, p.name, nx, ny);
    if (reread.count(index) != 0)
      p.id = coupler->def_partition(grid, p.name, p.layout);
    else
      p.id = coupler->def_partition(grid, p.name, std::move(p.layout));
  }
}

// The grid's nx x ny of the partition with `index` of `n` points: from the namcouple's
// grid line, else (for online remapping, which needs rows) from grids.nc, else n x 1.
std::pair<std::int64_t, std::int64_t> Session::grid_shape(int index, std::int64_t n) const {
  for (const config::ExchangeConfig& e : config.exchanges)
    for (const Variable& v : variables) {
      if (v.partition != index) continue;
      const config::FieldRef& ref = v.direction == FieldDirection::Out ? e.source : e.target;
      if (std::find(ref.fields.begin(), ref.fields.end(), v.name) == ref.fields.end()) continue;
      if (ref.nx > 0 && ref.nx * ref.ny == n) return {ref.nx, ref.ny};
      if (remapped_online(e)) {
        const auto shape = read_grid_shape(".", ref.grid);
        if (shape.first * shape.second == n) return shape;
      }
    }
  return {n, 1};
}

// The partitions of fields that an online-remapped entry moves, each with the grid name
// of the first such entry, in the order of the entries.
std::vector<std::pair<int, std::string>> Session::remapped_partitions() const {
  std::vector<std::pair<int, std::string>> found;
  std::set<int> done;
  for (const config::ExchangeConfig& e : config.exchanges) {
    if (!remapped_online(e)) continue;
    for (const Variable& v : variables) {
      const config::FieldRef& ref = v.direction == FieldDirection::Out ? e.source : e.target;
      if (std::find(ref.fields.begin(), ref.fields.end(), v.name) == ref.fields.end()) continue;
      if (done.insert(v.partition).second) found.emplace_back(v.partition, ref.grid);
    }
  }
  return found;
}

// Online remapping needs the coordinates, corners, masks and areas of both grids, which
// OASIS reads from grids.nc, masks.nc and areas.nc by the namcouple's grid names.
void Session::set_grid_points() {
  for (const auto& [index, grid] : remapped_partitions()) {
    const Partition& p = partitions[static_cast<std::size_t>(index)];
    const GridPoints g = read_grid_points(".", grid, p.layout.ids());
    coupler->set_coordinates(p.id, g.lon.data(), g.lat.data());
    if (g.corners > 0) coupler->set_corners(p.id, g.corners, g.clo.data(), g.cla.data());
    if (!g.mask.empty()) coupler->set_mask(p.id, g.mask.data());
    if (!g.area.empty()) coupler->set_areas(p.id, g.area.data());
  }
}

void Session::enddef() {
  FERRY_CHECK(!ended, Errc::State, "oasis_enddef is called once");
  // Grids written by parts are rare: one reduction finds whether the component has any.
  int by_parts = pieces.empty() ? 0 : 1;
  FERRY_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &by_parts, 1, MPI_INT, MPI_MAX, local));
  if (by_parts) detail::agree_on(Comm::view(local), [&] { assemble_pieces(); });
  write_grids();
  define_in_coupler();
  // Only online remapping reads grid points; every rank has the same namcouple.
  if (std::any_of(config.exchanges.begin(), config.exchanges.end(), remapped_online))
    detail::agree_on(Comm::view(coupled), [&] { set_grid_points(); });
  for (Variable& v : variables) {
    const Partition& p = partitions[static_cast<std::size_t>(v.partition)];
    if (v.input < 0) v.field = coupler->def_field(p.id, v.name, v.direction, Datatype::Float64, v.bundle);
  }
  coupler->enddef();
  // After the coupler's enddef, whose errors every rank shares: every rank gets here.
  define_inputs();
  ended = true;
}

const Variable& Session::variable(int var_id, const char* routine) const {
  FERRY_CHECK(var_id >= 1 && var_id <= static_cast<int>(variables.size()), Errc::Arg,
              "var_id ", var_id, var_id == -1
                  ? " is the id of a variable the namcouple does not name; do not put or get it"
                  : " was not returned by oasis_def_var on this rank");
  FERRY_CHECK(ended, Errc::State, "call oasis_enddef before ", routine);
  return variables[static_cast<std::size_t>(var_id - 1)];
}

// Fortran's (point, member) order to ferry's (member fastest), or back.
void interleave(const double* from, double* to, std::int64_t points, int bundle, bool to_ferry) {
  for (std::int64_t p = 0; p < points; ++p)
    for (int b = 0; b < bundle; ++b) {
      const auto fortran = static_cast<std::size_t>(b * points + p);
      const auto ferry = static_cast<std::size_t>(p * bundle + b);
      if (to_ferry)
        to[ferry] = from[fortran];
      else
        to[fortran] = from[ferry];
    }
}

int put_kinfo(int status) {
  if (status & kStatusWaitGroup) return kWaitGroup;
  const bool out = (status & kStatusOutput) != 0;
  if (status & kStatusToRestart) return out ? kToRestOut : kToRest;
  if (status & kStatusSent) return out ? kSentOut : kSent;
  if (out) return kOutput;
  if (status & kStatusTransformed) return kLocTrans;
  return kOk;
}

int Session::put(int var_id, int date, const std::vector<const double*>& fields, bool write_restart) {
  const Variable& v = variable(var_id, "oasis_put");
  FERRY_CHECK(v.direction == FieldDirection::Out, Errc::Arg, "variable \"", v.name,
              "\" was defined OASIS_In; get it with oasis_get");
  // Bundles: each array from Fortran's (point, member) order to ferry's.
  const auto size = static_cast<std::size_t>(points(v) * v.bundle);
  std::vector<const double*> data = fields;
  if (v.bundle > 1) {
    scratch.resize(size * fields.size());
    for (std::size_t k = 0; k < fields.size(); ++k) {
      interleave(fields[k], scratch.data() + k * size, points(v), v.bundle, true);
      data[k] = scratch.data() + k * size;
    }
  }
  PutExtras extras;
  extras.write_restart = write_restart;
  extras.gradients.assign(data.begin() + 1, data.end());
  return put_kinfo(coupler->put(v.field, static_cast<double>(date), data.front(), extras));
}

int Session::get(int var_id, int date, double* field) {
  const Variable& v = variable(var_id, "oasis_get");
  FERRY_CHECK(v.direction == FieldDirection::In, Errc::Arg, "variable \"", v.name,
              "\" was defined OASIS_Out; put it with oasis_put");
  if (v.input >= 0) return read_input(v, date, field);
  double* into = field;
  if (v.bundle > 1) {
    scratch.resize(static_cast<std::size_t>(points(v) * v.bundle));
    into = scratch.data();
  }
  const int status = coupler->get(v.field, static_cast<double>(date), into);
  if (!(status & kStatusReceived)) return kOk;
  if (v.bundle > 1) interleave(scratch.data(), field, points(v), v.bundle, false);
  // A lagged value read from the source's restart file arrives like any other: Recvd.
  return (status & kStatusOutput) ? kRecvOut : kRecvd;
}

// Each rank reads its own points of an input field, at its own gets: nothing here or
// there waits for another rank (OASIS reads an input file on the component's root and
// scatters it, so a rank that skips a get there blocks the others).
void Session::define_inputs() {
  for (Variable& v : variables) {
    if (v.input < 0) continue;
    const Partition& p = partitions[static_cast<std::size_t>(v.partition)];
    v.layout = std::make_unique<Layout>(p.layout);
  }
}

// OASIS's INPUT: at every input period, the record of the get's date from the entry's
// file (kinfo Input); between periods, nothing (Ok). Member k of a bundle is the file's
// variable NAME.00k, as OASIS names bundle members; the members are Fortran's columns.
int Session::read_input(const Variable& v, int date, double* field) {
  const config::NamcoupleInput& input = inputs[static_cast<std::size_t>(v.input)];
  if (std::fmod(static_cast<double>(date), input.period) != 0) return kOk;
  for (int k = 0; k < v.bundle; ++k) {
    char member[16];
    std::snprintf(member, sizeof member, ".%03d", k + 1);
    coupling::OasisField f;
    f.name = v.bundle > 1 ? v.name + member : v.name;
    coupling::OasisFieldFile::read_record(input.file, f, *v.layout, date,
                                          field + static_cast<std::ptrdiff_t>(k * points(v)));
  }
  return kInput;
}

std::vector<double> Session::periods(const Variable& v, FieldDirection direction) const {
  if (v.input >= 0)
    return direction == FieldDirection::In
               ? std::vector<double>{inputs[static_cast<std::size_t>(v.input)].period}
               : std::vector<double>{};
  return coupler->field_periods(component, v.name, direction);
}

int Session::put_inquire(int var_id, int date) {
  const Variable& v = variable(var_id, "oasis_put_inquire");
  return put_kinfo(coupler->put_inquire(v.field, static_cast<double>(date)));
}

void Session::terminate() {
  if (coupler) {
    coupler->finalize();
    coupler.reset();
  }
  for (MPI_Comm* comm : {&coupled, &local})
    if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
  const bool finalize = initialised_mpi;
  *this = Session();
  if (finalize) MPI_Finalize();
}

// Collective over the ranks of the components `names` (this one among them; blank
// names skipped) and no others: a communicator of their ranks, the components in
// compid order, each one's ranks in its local order. root_ranks[k]: the rank in it of
// the first process of component names[k] (-1 for a blank name).
MPI_Comm Session::join(std::vector<std::string> names, std::vector<int>& root_ranks) const {
  FERRY_CHECK(!component.empty(), Errc::State, "call oasis_init_comp first");
  for (std::string& n : names) n.erase(n.find_last_not_of(' ') + 1);
  std::vector<int> members;  // component numbers, sorted
  for (const std::string& n : names) {
    if (n.empty()) continue;
    const int number = component_number(n);
    FERRY_CHECK(std::find(members.begin(), members.end(), number) == members.end(), Errc::Arg,
                "component \"", n, "\" is named twice; name each component once");
    members.push_back(number);
  }
  FERRY_CHECK(std::find(names.begin(), names.end(), component) != names.end(), Errc::Arg,
              "the components named do not include this process's, \"", component,
              "\"; name it with the others");
  FERRY_CHECK(members.size() >= 2, Errc::Arg, "name at least one component other than \"",
              component, "\"");
  std::sort(members.begin(), members.end());
  std::vector<int> ranks;
  std::map<std::string, int> roots;
  for (int number : members) {
    const std::string& name = component_names[static_cast<std::size_t>(number)];
    roots[name] = static_cast<int>(ranks.size());
    for (std::size_t r = 0; r < world_names.size(); ++r)
      if (world_names[r] == name) ranks.push_back(static_cast<int>(r));
  }
  root_ranks.clear();
  for (const std::string& n : names) root_ranks.push_back(n.empty() ? -1 : roots.at(n));
  MPI_Group world_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  FERRY_CALL_MPI(MPI_Comm_group(world, &world_group));
  FERRY_CALL_MPI(MPI_Group_incl(world_group, static_cast<int>(ranks.size()), ranks.data(), &group));
  // Every process calls this for one set of components at a time, so one tag serves.
  constexpr int kTag = 2207;
  MPI_Comm joined = MPI_COMM_NULL;
  const int status = MPI_Comm_create_group(world, group, kTag, &joined);
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  FERRY_CALL_MPI(status);
  return joined;
}

// The position of component `name` in component_names (its compid - 1).
int Session::component_number(const std::string& name) const {
  const auto found = std::find(component_names.begin(), component_names.end(), name);
  FERRY_CHECK(found != component_names.end(), Errc::Arg, "no process runs component \"", name,
              "\"; the components are ", detail::list_first(component_names, component_names.size()));
  return static_cast<int>(found - component_names.begin());
}

// The world rank of the first process of component `name`.
int Session::first_world_rank(const std::string& name) const {
  component_number(name);
  return static_cast<int>(std::find(world_names.begin(), world_names.end(), name) - world_names.begin());
}

std::string text(const char* s) { return s == nullptr ? std::string() : std::string(s); }

}  // namespace

}  // namespace ferry::oasis

using ferry::oasis::guarded;
using ferry::oasis::session;
using ferry::oasis::coupled_session;
using ferry::oasis::text;

extern "C" {

int ferry_oasis_init_comp(int* compid, const char* name, int coupled, int has_world, MPI_Fint world) {
  return guarded("oasis_init_comp", [&] {
    session().init(text(name), coupled != 0, has_world ? MPI_Comm_f2c(world) : MPI_COMM_WORLD);
    *compid = session().compid;
  });
}

int ferry_oasis_get_localcomm(MPI_Fint* local) {
  return guarded("oasis_get_localcomm", [&] {
    FERRY_CHECK(session().local != MPI_COMM_NULL, ferry::Errc::State,
                "call oasis_init_comp first");
    *local = MPI_Comm_c2f(session().local);
  });
}

int ferry_oasis_create_couplcomm(int icpl, MPI_Fint local, MPI_Fint* coupl) {
  return guarded("oasis_create_couplcomm", [&] {
    MPI_Comm comm = MPI_COMM_NULL;
    FERRY_CALL_MPI(MPI_Comm_split(MPI_Comm_f2c(local), icpl == MPI_UNDEFINED ? MPI_UNDEFINED : 1, 0, &comm));
    *coupl = MPI_Comm_c2f(comm);
  });
}

int ferry_oasis_set_couplcomm(MPI_Fint) {
  // The coupler finds the ranks of each partition from the partitions themselves.
  return guarded("oasis_set_couplcomm", [&] { coupled_session("oasis_set_couplcomm"); });
}

int ferry_oasis_get_intracomm(MPI_Fint* comm, const char* other) {
  return guarded("oasis_get_intracomm", [&] {
    auto& s = session();
    FERRY_CHECK(text(other) != s.component, ferry::Errc::Arg, "\"", text(other),
                "\" is this component; name the other one");
    std::vector<int> roots;
    *comm = MPI_Comm_c2f(s.join({s.component, text(other)}, roots));
  });
}

int ferry_oasis_get_multi_intracomm(MPI_Fint* comm, int count, const char* const* names,
                                    int* root_ranks) {
  return guarded("oasis_get_multi_intracomm", [&] {
    FERRY_CHECK(count >= 0, ferry::Errc::Arg, "the number of component names is ", count);
    std::vector<int> roots;
    *comm = MPI_Comm_c2f(session().join(std::vector<std::string>(names, names + count), roots));
    std::copy(roots.begin(), roots.end(), root_ranks);
  });
}

int ferry_oasis_get_intercomm(MPI_Fint* comm, const char* other) {
  return guarded("oasis_get_intercomm", [&] {
    auto& s = session();
    FERRY_CHECK(text(other) != s.component, ferry::Errc::Arg, "\"", text(other),
                "\" is this component; name the other one");
    std::vector<int> roots;
    MPI_Comm joined = s.join({s.component, text(other)}, roots);
    MPI_Comm_free(&joined);
    const int leader = s.first_world_rank(text(other));
    MPI_Comm inter = MPI_COMM_NULL;
    FERRY_CALL_MPI(MPI_Intercomm_create(s.local, 0, s.world, leader, 0, &inter));
    *comm = MPI_Comm_c2f(inter);
  });
}

int ferry_oasis_def_partition(int* part_id, const int* ig_paral, int length, int isize,
                              const char* name) {
  return guarded("oasis_def_partition", [&] {
    *part_id = coupled_session("oasis_def_partition")
                   .def_partition(ig_paral, length, isize, text(name));
  });
}

int ferry_oasis_def_var(int* var_id, const char* name, int part_id, int bundle, int kinout, int) {
  return guarded("oasis_def_var", [&] {
    *var_id = coupled_session("oasis_def_var").def_var(text(name), part_id, bundle, kinout);
  });
}

int ferry_oasis_enddef(void) {
  const int status = guarded("oasis_enddef", [&] { coupled_session("oasis_enddef").enddef(); });
  if (status != FERRY_OASIS_OK && session().coupled != MPI_COMM_NULL) {
    // enddef's errors are agreed: every rank has its message on its way. Wait (at most
    // a few seconds) until all have printed, so that the first to call oasis_abort does
    // not cut the others' messages off.
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(session().coupled, &request);
    const double start = MPI_Wtime();
    int done = 0;
    while (!done && MPI_Wtime() - start < 5.0) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
  return status;
}

int ferry_oasis_var_shape(int var_id, long long* points, int* bundle) {
  return guarded("oasis_put/get", [&] {
    const auto& v = coupled_session("oasis_put/get").variable(var_id, "oasis_put/get");
    *points = session().points(v);
    *bundle = v.bundle;
  });
}

int ferry_oasis_put(int var_id, int date, const double* const* fields, int nfields, int write_restart,
                    int* kinfo) {
  return guarded("oasis_put", [&] {
    FERRY_CHECK(nfields >= 1 && nfields <= 5, ferry::Errc::Arg, nfields,
                " arrays given; give fld1 and at most fld2 to fld5");
    *kinfo = coupled_session("oasis_put").put(
        var_id, date, std::vector<const double*>(fields, fields + nfields), write_restart != 0);
  });
}

int ferry_oasis_get(int var_id, int date, double* field, int* kinfo) {
  return guarded("oasis_get", [&] { *kinfo = coupled_session("oasis_get").get(var_id, date, field); });
}

int ferry_oasis_put_inquire(int var_id, int date, int* kinfo) {
  return guarded("oasis_put_inquire",
                 [&] { *kinfo = coupled_session("oasis_put_inquire").put_inquire(var_id, date); });
}

int ferry_oasis_get_ncpl(int var_id, int* ncpl) {
  return guarded("oasis_get_ncpl", [&] {
    auto& s = coupled_session("oasis_get_ncpl");
    const auto& v = s.variables.at(static_cast<std::size_t>(std::max(var_id - 1, 0)));
    FERRY_CHECK(var_id >= 1 && var_id <= static_cast<int>(s.variables.size()), ferry::Errc::Arg,
                "var_id ", var_id, " was not returned by oasis_def_var");
    *ncpl = static_cast<int>(s.periods(v, v.direction).size());
  });
}

int ferry_oasis_get_freqs(int var_id, int mop, int ncpl, int* freqs) {
  return guarded("oasis_get_freqs", [&] {
    auto& s = coupled_session("oasis_get_freqs");
    FERRY_CHECK(var_id >= 1 && var_id <= static_cast<int>(s.variables.size()), ferry::Errc::Arg,
                "var_id ", var_id, " was not returned by oasis_def_var");
    const auto& v = s.variables[static_cast<std::size_t>(var_id - 1)];
    const auto direction = mop == ferry::oasis::kOasisOut ? ferry::FieldDirection::Out : ferry::FieldDirection::In;
    const std::vector<double> periods = s.periods(v, direction);
    FERRY_CHECK(ncpl == static_cast<int>(periods.size()), ferry::Errc::ArgSize, "ncpl is ",
                ncpl, " but variable \"", v.name, "\" takes part in ", periods.size(),
                " couplings (oasis_get_ncpl)");
    for (int k = 0; k < ncpl; ++k) freqs[k] = static_cast<int>(periods[static_cast<std::size_t>(k)]);
  });
}

int ferry_oasis_get_debug(int* level) {
  *level = session().debug;
  return FERRY_OASIS_OK;
}

int ferry_oasis_set_debug(int level) {
  session().debug = level;
  return FERRY_OASIS_OK;
}

int ferry_oasis_start_grids_writing(int* flag) {
  session().writing_grids = true;
  *flag = 1;
  return FERRY_OASIS_OK;
}

int ferry_oasis_write_grid_data(const char* grid, int nx, int ny, int kind, int nc, const double* a,
                                const double* b, const int* mask, long long count, int part_id) {
  return guarded("oasis_write_grid", [&] {
    auto& s = session();
    FERRY_CHECK(s.writing_grids, ferry::Errc::State, "call oasis_start_grids_writing first");
    const auto n = static_cast<std::size_t>(count);
    if (part_id > 0) {
      // A part: this process's points of partition part_id, kept until oasis_enddef.
      FERRY_CHECK(part_id <= static_cast<int>(s.partitions.size()), ferry::Errc::Arg, "grid \"",
                  text(grid), "\": il_part_id ", part_id, " was not returned by oasis_def_partition");
      auto& piece = s.pieces[text(grid)][kind];
      piece.partition = part_id - 1;
      piece.nx = nx;
      piece.ny = ny;
      piece.corners = kind == 1 ? nc : 1;
      if (kind == 2) {
        piece.a.assign(mask, mask + n);
      } else {
        piece.a.assign(a, a + n);
        if (kind <= 1) piece.b.assign(b, b + n);
      }
      return;
    }
    ferry::oasis::GridData& g = s.grids.grid(text(grid), nx, ny);
    FERRY_CHECK(count == static_cast<long long>(nx) * ny * (kind == 1 ? nc : 1), ferry::Errc::ArgSize,
                "grid \"", text(grid), "\": the arrays hold ", count, " values per variable, expected ",
                static_cast<long long>(nx) * ny * (kind == 1 ? nc : 1));
    switch (kind) {
      case 0: g.lon.assign(a, a + n); g.lat.assign(b, b + n); break;
      case 1: g.corners = nc; g.clo.assign(a, a + n); g.cla.assign(b, b + n); break;
      case 2: g.mask.assign(mask, mask + n); break;
      case 3: g.area.assign(a, a + n); break;
      case 4: g.frac.assign(a, a + n); break;
      default: g.angle.assign(a, a + n); break;
    }
  });
}

int ferry_oasis_terminate_grids_writing(void) {
  session().writing_grids = false;
  return FERRY_OASIS_OK;
}

int ferry_oasis_terminate(void) {
  return guarded("oasis_terminate", [&] { session().terminate(); });
}

void ferry_oasis_abort(int compid, const char* routine, const char* message, int rcode) {
  auto& s = session();
  int rank = -1;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "oasis_abort: component %s (id %d), world rank %d, routine %s: %s\n",
               s.component.empty() ? "(not initialised)" : s.component.c_str(), compid, rank,
               routine, message);
  std::fflush(stderr);
  // OASIS's API ends every process of the coupled run here.
  MPI_Abort(s.world != MPI_COMM_NULL ? s.world : MPI_COMM_WORLD, rcode);
}

const char* ferry_oasis_last_error(void) { return ferry::oasis::last_error.c_str(); }

}  // extern "C"
