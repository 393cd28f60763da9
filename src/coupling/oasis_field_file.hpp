// OasisFieldFile: restart and output files laid out as OASIS3-MCT lays them out.
#pragma once

#include <cstdint>
#include <string>

#include "coupling/root_gather.hpp"
#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/layout.hpp"

namespace ferry::coupling {

/// One field of an OASIS-format file: a double variable named after the field, of
/// shape (ny, nx) when the grid's sizes are known (nx x ny = the layout's global
/// size), else (global size); a bundle of `components` > 1 values per point adds a
/// leading dimension. Restart files hold any number of such variables (entries may
/// share one); output files add an int `time` record dimension first. Writes go
/// through rank 0 of `comm`, which writes the whole field as OASIS's root process
/// does; reads are done by each rank for its own points (the box of the variable
/// that covers them), with no exchange. Every function taking `comm` is collective
/// over it and raises the same error on every rank (Errc::Io naming the file and
/// variable).
struct OasisField {
  std::string name;                 ///< variable name
  std::int64_t nx = 0, ny = 0;      ///< 0 = one dimension of the global size
  int components = 1;
  Datatype type = Datatype::Float64;  ///< of the caller's values (converted to and from double)
};

class OasisFieldFile {
 public:
  /// True if `path` exists (checked on rank 0 of `comm`).
  static bool exists(const Comm& comm, const std::string& path);
  /// Reads `field` into `data` (this rank's ids of `layout`). Returns false, on every
  /// rank, if the file has no such variable.
  static bool read(const Comm& comm, const std::string& path, const OasisField& field,
                   const Layout& layout, void* data);
  /// Reads the record of `field` whose "time" value is `time` from the input file
  /// `path` (OASIS's INPUT files: the field's double or float variable of shape
  /// (time, ...), "time" of any real or int type, in seconds if it has units) into
  /// `data`, this rank's ids of `layout`. Not collective: each rank opens the file, finds
  /// the record and reads the box covering its own points, so a rank that reads at
  /// another time, or not at all, blocks no other. Raises Errc::Io on this rank if the
  /// file, the variable or the record is missing.
  static void read_record(const std::string& path, const OasisField& field,
                          const Layout& layout, double time, void* data);
  /// Writes `field` into `path`, creating the file or adding to it; a variable of that
  /// name is overwritten (so a restart file holds the last values of every field).
  static void write(const Comm& comm, const std::string& path, const OasisField& field,
                    const Layout& layout, const void* data);
  /// Writes `count` (an int variable of length 1) into `path`, as write does.
  static void write_count(const Comm& comm, const std::string& path, const std::string& name,
                          int count);
  /// Reads an int variable of length 1; false if missing.
  static bool read_count(const Comm& comm, const std::string& path, const std::string& name,
                         int& count);
  /// Appends one time record of `field` at `time` to the output file `path`, the
  /// values gathered by `gather` (collective over its communicator; kept by the caller
  /// so that every record reuses its exchange); `replace`: start a new file (the
  /// run's first record) instead.
  static void append(RootGather& gather, const std::string& path, const OasisField& field,
                     double time, const void* data, bool replace);
};

}  // namespace ferry::coupling
