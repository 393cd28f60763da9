// PartitionRoute: the communicators and plan of the exchanges between one pair of partitions.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "ferry/comm.hpp"
#include "ferry/exchange_share.hpp"
#include "ferry/layout.hpp"
#include "ferry/plan.hpp"

namespace ferry::coupling {

/// What every exchange entry between the same source and target partitions, on the
/// same ranks, has in common: built once and shared, since the plan is as large as
/// a float64 field (8 bytes of index per point) and each communicator costs setup.
struct PartitionRoute {
  /// Collective over `run` (every rank of the run, members or not). Layouts are
  /// this rank's (ignored unless it is a member of that side). `entries`: how many
  /// exchange entries will use the route (a hint for the share's resources).
  /// `all_hold`: every member of the source (first) or target side holds points, the
  /// same on every rank; the side's holders are then the side's communicator itself.
  PartitionRoute(const Comm& run, bool source_member, bool target_member, const Layout* source_layout,
        const Layout* target_layout, std::int64_t grid_size, std::size_t entries,
        std::pair<bool, bool> all_hold);

  Comm link;    ///< source and destination members
  Comm source;  ///< source members (restart and output files)
  Comm target;  ///< destination members (output files)
  /// The members of each side that hold points: output files and CHECKIN/CHECKOUT
  /// sums, at a put or get, need only them, so a member holding no point of the
  /// partition may skip its puts and gets (as OASIS allows).
  Comm source_holders;
  Comm target_holders;
  std::shared_ptr<const Plan> plan;  ///< over `link`; null on other ranks
  /// What the entries' exchanges share (one communicator, the rma engine's window), over
  /// `link`; null on other ranks. Closed (collective over `link`) after every entry's
  /// exchange, never by the destructor. An error an exchange's set-up meets on one rank
  /// after its engine's last collective call is raised there alone
  /// (LateSetupErrors::RaisedAlone): the Link or the coupler agrees on it.
  std::shared_ptr<ExchangeShare> share;
};

}  // namespace ferry::coupling
