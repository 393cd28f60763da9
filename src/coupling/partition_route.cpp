#include "coupling/partition_route.hpp"

#include "util/mpi.hpp"

namespace ferry::coupling {

namespace {

// The members of a group as a communicator of their own (Comm() elsewhere).
Comm split(const Comm& run, bool member) {
  MPI_Comm comm = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Comm_split(run.get(), member ? 0 : MPI_UNDEFINED, run.rank(), &comm));
  return member ? Comm::adopt(comm) : Comm();
}

// A side's holders: the side itself when every member holds points, else a split.
Comm holders(const Comm& run, const Comm& side, bool all_hold, bool holds) {
  return all_hold ? Comm::view(side.get()) : split(run, side.valid() && holds);
}

}  // namespace

PartitionRoute::PartitionRoute(const Comm& run, bool source_member, bool target_member, const Layout* source_layout,
             const Layout* target_layout, std::int64_t grid_size, std::size_t entries,
             std::pair<bool, bool> all_hold)
    : link(split(run, source_member || target_member)),
      source(split(run, source_member)),
      target(split(run, target_member)),
      source_holders(holders(run, source, all_hold.first, source_member && source_layout->local_size() > 0)),
      target_holders(holders(run, target, all_hold.second, target_member && target_layout->local_size() > 0)) {
  if (!link.valid()) return;
  const Layout none = Layout::none(grid_size);
  plan = std::make_shared<const Plan>(Plan::build(link, source_member ? *source_layout : none,
                                                  target_member ? *target_layout : none));
  share = std::make_shared<ExchangeShare>(link.get(), entries, LateSetupErrors::RaisedAlone);
}

}  // namespace ferry::coupling
