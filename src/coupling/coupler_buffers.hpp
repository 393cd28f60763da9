// CouplerBuffers: the time-series buffers of a coupled run (its `buffers:` entries).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "coupling/declarations.hpp"
#include "ferry/comm.hpp"
#include "ferry/time_series_buffer.hpp"

namespace ferry::coupling {

/// One TimeSeriesBuffer per `buffers:` entry, as one rank sees them: the ranks that
/// declare an entry's source field load it, those that declare its target field read
/// their partition's box of every step. Calls name a buffer by its entry's name;
/// messages start with "Coupler::<call>", as the Coupler methods that forward here.
class CouplerBuffers {
 public:
  /// No buffers: a coupler before enddef.
  CouplerBuffers() = default;
  /// Collective over `run` (every rank of the run): checks each entry of `config`
  /// against the catalogue and this rank's declarations, failing the same way on
  /// every rank, then sets up its buffer over a communicator of its source and
  /// target ranks, in configuration order. `components`: every component of the
  /// run, sorted. Keeps pointers into `config`, which must outlive this object.
  CouplerBuffers(const Comm& run, const config::Config& config, const Declarations& declarations,
                 const std::vector<CatalogueEntry>& catalogue,
                 const std::vector<std::string>& components);

  /// Whether an entry loads (`direction` Out) or reads (In) `field` of `component`.
  bool uses(const std::string& component, const std::string& field,
            FieldDirection direction) const;

  /// See Coupler::load, Coupler::read and Coupler::read_steps.
  void load(const std::string& name, const void* data, std::int64_t step);
  ReadResult read(const std::string& name, void* out, std::int64_t max_steps);
  const std::vector<std::int64_t>& read_steps(const std::string& name);
  /// See Coupler::buffer_values and Coupler::buffer_type.
  std::int64_t values(const std::string& name) const;
  Datatype type(const std::string& name) const;

  /// Collective over the run, in configuration order: the source closes each
  /// buffer, the target detaches, then the members free the window together.
  void close();

 private:
  struct Entry {
    const config::BufferConfig* config = nullptr;
    Datatype type = Datatype::Float64;
    bool source = false;      // this rank loads the buffer
    bool target = false;      // this rank reads it
    std::int64_t values = 0;  // of this rank's box, per step
    Comm members;             // source and target ranks of the buffer
    Comm readers;             // the target ranks
    std::optional<TimeSeriesBuffer> buffer;
    std::optional<TimeSeriesReader> reader;
  };

  static Entry build(const Comm& run, const config::BufferConfig& b, const Declarations& declarations,
                     const std::vector<CatalogueEntry>& catalogue,
                     const std::vector<std::string>& components);
  // The index of entry `name`; Errc::Arg, naming `call`, for an unknown name.
  std::size_t find(const std::string& name, const char* call) const;
  // The entry `name` on a rank that reads it (`reads`) or loads it.
  Entry& member(const std::string& name, const char* call, bool reads);

  std::vector<Entry> entries_;
  std::string config_path_;  // for messages
  int rank_ = -1;            // in the run, for messages
};

}  // namespace ferry::coupling
