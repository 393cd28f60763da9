// The values of one layout gathered on rank 0 of a communicator, as OASIS's files
// hold whole fields, through exchanges built once and kept for every later gather.
#pragma once

#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/datatype.hpp"
#include "ferry/exchange.hpp"
#include "ferry/layout.hpp"

namespace ferry::coupling {

class RootGather {
 public:
  /// Keeps a view of `comm` and a reference to `layout` (this rank's ids), which must
  /// outlive the RootGather; builds nothing yet.
  RootGather(const Comm& comm, const Layout& layout);

  const Comm& comm() const noexcept { return comm_; }
  std::int64_t global_size() const noexcept { return layout_->global_size(); }

  /// Collective over the communicator: the whole field, `spec.components` values per
  /// point (point-major) converted to double, on rank 0; empty elsewhere. The first
  /// gather of a datatype and component count builds its exchange (a plan and a p2p
  /// engine); later ones reuse it.
  std::vector<double> gather(const FieldSpec& spec, const void* data);

 private:
  Comm comm_;
  const Layout* layout_;
  Layout root_;  // every id on rank 0, in order
  std::map<std::pair<Datatype, int>, std::unique_ptr<Exchange>> exchanges_;
};

/// Every id of a field of `size` points on rank 0 of `comm`, in order; none elsewhere.
Layout whole_on_root(const Comm& comm, std::int64_t size);

}  // namespace ferry::coupling
