// FieldFile: fields distributed over a layout, written to and read from NetCDF.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/layout.hpp"

namespace ferry::coupling {

/// What a restart or output file records about one field besides its values.
struct FieldRecord {
  std::string name;            ///< NetCDF variable name (the field's name)
  std::string grid;            ///< grid name the values live on
  std::int64_t global_size = 0;
  int components = 1;          ///< trailing dimension (bundle members or levels)
  Datatype type = Datatype::Float64;
  double time = 0;             ///< model time (seconds) the values are for
  std::map<std::string, double> numbers;  ///< extra numeric attributes (e.g. "accumulated": 3)
};

/// One NetCDF file holding whole fields (global size x components each), written
/// and read collectively by the ranks that hold the fields. No rank ever holds a
/// whole field: values are redistributed to contiguous slabs (ferry's own
/// Exchange, one per layout that fields share on every rank), and the slabs are
/// written one rank after another into the file. The format is described in
/// docs/user/files.md.
///
/// Every function is collective over `comm` and logically collective in its
/// records (the same on every rank: Errc::Arg otherwise). A rank holding none of a
/// field passes Layout::none(global_size) (and any data pointer). Each error is
/// raised on every rank with the same code and message; Errc::Io names the file
/// and the NetCDF error.
class FieldFile {
 public:
  /// Creates (or replaces) `path` and writes every field: data[f] holds this rank's
  /// values of records[f] at the ids of layouts[f] (layout.local_size() x components
  /// values). The file is written as "<path>.partial" and renamed when complete, so a
  /// failed write leaves any previous file intact. Every id of a field must be held
  /// by exactly one rank (Errc::Missing / Errc::Duplicate otherwise).
  static void write(const Comm& comm, const std::string& path,
                    const std::vector<FieldRecord>& records, const std::vector<const Layout*>& layouts,
                    const std::vector<const void*>& data);

  /// A file written in parts, by groups of ranks one after the other (the exchanges
  /// that share a restart file, each over its own source ranks): begin_parts creates
  /// "<path>.partial" (collective over `comm`), each write_part adds fields to it as
  /// write() does (collective over the ranks that hold them; one part at a time, never
  /// two at once), end_parts renames it to `path` (collective over `comm`). A field
  /// name given twice raises Errc::Arg. write() is the three over one communicator.
  /// After a failure, discard_parts removes "<path>.partial" (not collective).
  static void begin_parts(const Comm& comm, const std::string& path);
  static void write_part(const Comm& comm, const std::string& path,
                         const std::vector<FieldRecord>& records,
                         const std::vector<const Layout*>& layouts,
                         const std::vector<const void*>& data);
  static void end_parts(const Comm& comm, const std::string& path);
  static void discard_parts(const std::string& path) noexcept;

  /// Reads field `expected.name` into `data` (this rank's ids of `layout`, any
  /// decomposition, not necessarily the one that wrote the file). Raises Errc::Io if
  /// the file or variable is missing or the file is not a ferry field file of this
  /// format version, and Errc::Arg naming the mismatch when grid, global size,
  /// components, type or time differ from `expected` (time compared exactly).
  /// Returns the stored record (numbers included; `expected.numbers` is ignored).
  static FieldRecord read(const Comm& comm, const std::string& path, const FieldRecord& expected,
                          const Layout& layout, void* data);

  /// Reads several fields as above, sharing one exchange among fields that share a
  /// layout object on every rank. Returns the stored records in the order given.
  static std::vector<FieldRecord> read(const Comm& comm, const std::string& path,
                                       const std::vector<FieldRecord>& expected,
                                       const std::vector<const Layout*>& layouts,
                                       const std::vector<void*>& data);

  /// Appends one time slice of each field to an output file, like OASIS EXPOUT. The
  /// first call creates the file with an unlimited time dimension; later calls must
  /// give the same fields (names, grids, sizes, components, types) and a later
  /// time (Errc::Arg otherwise). All records of one call carry the same time. The
  /// numbers are stored when the file is created. Builds its exchanges for this one
  /// record: a FieldOutput keeps them from record to record.
  static void append(const Comm& comm, const std::string& path,
                     const std::vector<FieldRecord>& records,
                     const std::vector<const Layout*>& layouts, const std::vector<const void*>& data);

 private:
  static std::string partial_path(const std::string& path);
};

struct SlabRoutes;

/// An output file that FieldFile::append writes record after record, keeping the
/// exchanges that move the fields to the file's slabs from one record to the next
/// (built again only when a rank gives other layout objects or field types; the
/// layouts must not change while they are the same objects).
class FieldOutput {
 public:
  /// Keeps a view of `comm`, which must outlive the FieldOutput; builds nothing yet.
  FieldOutput(const Comm& comm, std::string path);
  ~FieldOutput();
  FieldOutput(const FieldOutput&) = delete;
  FieldOutput& operator=(const FieldOutput&) = delete;

  /// FieldFile::append to the path, with the same arguments, checks and errors.
  void append(const std::vector<FieldRecord>& records, const std::vector<const Layout*>& layouts,
              const std::vector<const void*>& data);

 private:
  Comm comm_;
  std::string path_;
  std::unique_ptr<SlabRoutes> routes_;  // from layouts_ for fields of specs_
  std::vector<const Layout*> layouts_;
  std::vector<std::pair<Datatype, int>> specs_;
};

}  // namespace ferry::coupling
