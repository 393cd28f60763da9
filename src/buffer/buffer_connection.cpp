#include "buffer/buffer_connection.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "buffer/box_geometry.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

namespace {

// One rank's role as a fixed record of integers, gathered by every rank.
enum Field : int {
  kIsWorker,
  kGroup,
  kDims,
  kShape,                            // kMaxBufferDims extents
  kType = kShape + kMaxBufferDims,
  kMode,
  kCapacityInSteps,
  kCapacityValue,
  kStart,                            // kMaxBufferDims indices
  kEnd = kStart + kMaxBufferDims,    // kMaxBufferDims indices
  kRecordSize = kEnd + kMaxBufferDims,
};

const char* const kWho = "TimeSeriesBuffer::expose";

std::vector<std::int64_t> to_record(const BufferRole& role) {
  std::vector<std::int64_t> r(kRecordSize, 0);
  r[kIsWorker] = role.requester ? 0 : 1;
  r[kGroup] = role.group;
  if (!role.requester) return r;
  r[kDims] = static_cast<std::int64_t>(role.shape.size());
  for (std::size_t d = 0; d < role.shape.size(); ++d) {
    r[kShape + d] = role.shape[d];
    r[kStart + d] = role.box.start[d];
    r[kEnd + d] = role.box.end[d];
  }
  r[kType] = static_cast<int>(role.type);
  r[kMode] = static_cast<int>(role.mode);
  r[kCapacityInSteps] = role.capacity.in_steps() ? 1 : 0;
  r[kCapacityValue] = role.capacity.value();
  return r;
}

// Checks of a rank's own arguments, before anything is exchanged.
void check_role(const BufferRole& role, const Comm& parent) {
  const int rank = parent.rank();
  if (!role.requester) {
    FERRY_CHECK(role.group >= 0 && role.group < parent.size(), Errc::Arg,
                "TimeSeriesBuffer::connect: worker group ", role.group, " on rank ", rank,
                " is not in [0, ", parent.size(),
                "). Number the worker groups 0, 1, 2, ... without gaps");
    return;
  }
  check_shape(role.shape, kWho);
  check_box(role.box, role.shape, kWho, rank);
  const int type = static_cast<int>(role.type);
  FERRY_CHECK(type >= 0 && type <= static_cast<int>(Datatype::Int64), Errc::Arg, kWho,
              ": unknown datatype ", type, ". Use Float64, Float32, Int32 or Int64");
  const int mode = static_cast<int>(role.mode);
  FERRY_CHECK(mode == static_cast<int>(BufferMode::Lossless) ||
                  mode == static_cast<int>(BufferMode::Lossy),
              Errc::Arg, kWho, ": unknown mode ", mode, ". Use BufferMode::Lossless or Lossy");
  FERRY_CHECK(role.capacity.value() >= 1, Errc::Arg, kWho, ": capacity ",
              role.capacity.value(), role.capacity.in_steps() ? " steps" : " bytes",
              " is not positive. Keep at least one step");
}

const std::int64_t* record_of(const std::vector<std::int64_t>& records, int rank) {
  return records.data() + static_cast<std::ptrdiff_t>(rank) * kRecordSize;
}

std::string shape_text(const std::int64_t* r) {
  std::string text;
  for (std::int64_t d = 0; d < r[kDims]; ++d) text += cat(d ? " x " : "", r[kShape + d]);
  return text;
}

}  // namespace

BufferConnection::BufferConnection(MPI_Comm user_parent, const BufferRole& role)
    : parent_(Comm::dup(user_parent)) {
  agree_on(parent_, [&] { check_role(role, parent_); });

  const std::vector<std::int64_t> mine = to_record(role);
  std::vector<std::int64_t> records(static_cast<std::size_t>(parent_.size()) * kRecordSize);
  FERRY_CALL_MPI(MPI_Allgather(mine.data(), kRecordSize, MPI_INT64_T, records.data(), kRecordSize,
                               MPI_INT64_T, parent_.get()));
  // Every rank checks the same gathered records, so every rank raises the same error.
  adopt_roles(records);
  const std::int64_t* first = record_of(records, requesters_.front().rank);
  size_rings(first[kCapacityValue], first[kCapacityInSteps] != 0);

  MPI_Comm requester_comm = MPI_COMM_NULL;
  FERRY_CALL_MPI(MPI_Comm_split(parent_.get(), role.requester ? 0 : MPI_UNDEFINED,
                                parent_.rank(), &requester_comm));
  requester_comm_ = Comm::adopt(requester_comm);

  const RequesterRank* me = nullptr;
  for (const RequesterRank& r : requesters_)
    if (r.rank == parent_.rank()) me = &r;
  window_ = BufferWindow(parent_, me ? layout_.window_bytes(me->slot_bytes) : 0);
  if (me) {
    // No reader looks before the barrier below, so plain stores may set the stamps.
    for (std::int64_t s = 0; s < layout_.capacity; ++s) {
      const std::int64_t empty = RingLayout::kNoLoad;
      std::memcpy(window_.base() + layout_.stamp(s), &empty, sizeof empty);
    }
    window_.sync();
  }
  FERRY_CALL_MPI(MPI_Barrier(parent_.get()));
}

void BufferConnection::adopt_roles(const std::vector<std::int64_t>& records) {
  const std::int64_t* first = nullptr;
  int first_rank = -1;
  int groups = 0;
  for (int rank = 0; rank < parent_.size(); ++rank) {
    const std::int64_t* r = record_of(records, rank);
    if (r[kIsWorker]) {
      groups = std::max(groups, static_cast<int>(r[kGroup]) + 1);
      continue;
    }
    if (!first) {
      first = r;
      first_rank = rank;
    }
    FERRY_CHECK(r[kDims] == first[kDims] &&
                    std::equal(r + kShape, r + kShape + r[kDims], first + kShape),
                Errc::Arg, kWho, ": requester rank ", rank, " gives the global shape ",
                shape_text(r), ", requester rank ", first_rank, " gives ", shape_text(first),
                ". Every requester rank must pass the same global shape");
    FERRY_CHECK(r[kType] == first[kType], Errc::Arg, kWho, ": requester rank ", rank,
                " gives type ", datatype_name(static_cast<Datatype>(r[kType])),
                ", requester rank ", first_rank, " gives ",
                datatype_name(static_cast<Datatype>(first[kType])),
                ". Every requester rank must pass the same type");
    FERRY_CHECK(r[kMode] == first[kMode], Errc::Arg, kWho, ": requester rank ", rank,
                " asks for mode ", r[kMode], ", requester rank ", first_rank, " for mode ",
                first[kMode], ". Every requester rank must pass the same mode");
    FERRY_CHECK(r[kCapacityInSteps] == first[kCapacityInSteps] &&
                    r[kCapacityValue] == first[kCapacityValue],
                Errc::Arg, kWho, ": requester rank ", rank, " asks for a capacity of ",
                r[kCapacityValue], r[kCapacityInSteps] ? " steps" : " bytes",
                ", requester rank ", first_rank, " for ", first[kCapacityValue],
                first[kCapacityInSteps] ? " steps" : " bytes",
                ". Every requester rank must pass the same capacity");
    RequesterRank requester;
    requester.rank = rank;
    requester.box.start.assign(r + kStart, r + kStart + r[kDims]);
    requester.box.end.assign(r + kEnd, r + kEnd + r[kDims]);
    requester.slot_bytes =
        box_volume(requester.box) * static_cast<std::int64_t>(datatype_size(
                                        static_cast<Datatype>(r[kType])));
    requesters_.push_back(std::move(requester));
  }
  FERRY_CHECK(first != nullptr, Errc::Arg,
              "TimeSeriesBuffer::connect: no rank of the parent communicator called expose; got ",
              parent_.size(), " worker ranks. The requester ranks must call "
              "TimeSeriesBuffer::expose in the same collective set-up");
  shape_.assign(first + kShape, first + kShape + first[kDims]);
  type_ = static_cast<Datatype>(first[kType]);
  mode_ = static_cast<BufferMode>(first[kMode]);

  group_sizes_.assign(static_cast<std::size_t>(groups), 0);
  for (int rank = 0; rank < parent_.size(); ++rank) {
    const std::int64_t* r = record_of(records, rank);
    if (r[kIsWorker]) ++group_sizes_[static_cast<std::size_t>(r[kGroup])];
  }
  for (int g = 0; g < groups; ++g)
    FERRY_CHECK(group_sizes_[static_cast<std::size_t>(g)] > 0, Errc::Arg,
                "TimeSeriesBuffer::connect: worker group ", g, " has no ranks, but group ",
                groups - 1, " has. Number the worker groups 0, 1, 2, ... without gaps");
  const std::int64_t* me = record_of(records, parent_.rank());
  group_ = me[kIsWorker] ? static_cast<int>(me[kGroup]) : -1;
  layout_.groups = groups;
}

void BufferConnection::size_rings(std::int64_t capacity_value, bool capacity_in_steps) {
  std::int64_t widest = 0;
  int widest_rank = -1;
  for (const RequesterRank& r : requesters_)
    if (r.slot_bytes > widest) {
      widest = r.slot_bytes;
      widest_rank = r.rank;
    }
  std::int64_t slots = capacity_value;
  if (!capacity_in_steps && widest > 0) {
    slots = capacity_value / widest;
    FERRY_CHECK(slots >= 1, Errc::Arg, kWho, ": a capacity of ", capacity_value,
                " bytes per requester rank holds no step of requester rank ", widest_rank,
                ", whose box takes ", widest, " bytes per step. Give at least ", widest,
                " bytes, or a capacity in steps");
  }
  // MPI counts of slots are ints; the window of the widest rank must fit MPI_Aint.
  mpi_count<int>(slots, "TimeSeriesBuffer::expose: slots of the ring");
  constexpr std::int64_t kMaxBytes = std::numeric_limits<std::int64_t>::max() / 2;
  FERRY_CHECK(widest == 0 || slots <= kMaxBytes / widest, Errc::Overflow, kWho, ": ", slots,
              " slots of ", widest, " bytes do not fit one window. Use a smaller capacity");
  layout_.capacity = slots;
}

}  // namespace ferry::detail
