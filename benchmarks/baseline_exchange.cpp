#include "baseline_exchange.hpp"

#include "util/mpi.hpp"

namespace ferry::bench {

namespace {
constexpr int kTag = 7101;
}

BaselineExchange::BaselineExchange(MPI_Comm comm, const Layout& src, const Layout& dst,
                                   int fields)
    : comm_(Comm::dup(comm)), fields_(fields) {
  const double start = MPI_Wtime();
  plan_ = Plan::build(comm_, src, dst);
  send_.resize(static_cast<std::size_t>(plan_.send().total() * fields_));
  recv_.resize(static_cast<std::size_t>(plan_.recv().total() * fields_));
  requests_.resize(plan_.send().peer_count() + plan_.recv().peer_count());
  setup_seconds_ = MPI_Wtime() - start;
}

void BaselineExchange::execute(const void* const* src_fields, void* const* dst_fields) {
  const PlanSide& send = plan_.send();
  const PlanSide& recv = plan_.recv();
  const std::int64_t nf = fields_;

  // A peer's block holds its points of field 0, then of field 1, ...
  for (std::size_t k = 0; k < send.peer_count(); ++k) {
    double* out = send_.data() + send.offsets[k] * nf;
    for (int f = 0; f < fields_; ++f) {
      const auto* in = static_cast<const double*>(src_fields[f]);
      for (std::int64_t i = send.offsets[k]; i < send.offsets[k + 1]; ++i)
        *out++ = in[send.index[static_cast<std::size_t>(i)]];
    }
  }
  std::size_t r = 0;
  for (std::size_t k = 0; k < recv.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Irecv(recv_.data() + recv.offsets[k] * nf,
                             detail::mpi_count<int>(recv.count(k) * nf, "values from one peer"),
                             MPI_DOUBLE, recv.peers[k], kTag, comm_.get(), &requests_[r++]));
  for (std::size_t k = 0; k < send.peer_count(); ++k)
    FERRY_CALL_MPI(MPI_Isend(send_.data() + send.offsets[k] * nf,
                             detail::mpi_count<int>(send.count(k) * nf, "values to one peer"),
                             MPI_DOUBLE, send.peers[k], kTag, comm_.get(), &requests_[r++]));

  const auto& self_src = plan_.self_src();
  const auto& self_dst = plan_.self_dst();
  for (int f = 0; f < fields_; ++f) {
    const auto* in = static_cast<const double*>(src_fields[f]);
    auto* out = static_cast<double*>(dst_fields[f]);
    for (std::size_t i = 0; i < self_src.size(); ++i) out[self_dst[i]] = in[self_src[i]];
  }

  if (!requests_.empty())
    FERRY_CALL_MPI(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(),
                               MPI_STATUSES_IGNORE));
  for (std::size_t k = 0; k < recv.peer_count(); ++k) {
    const double* in = recv_.data() + recv.offsets[k] * nf;
    for (int f = 0; f < fields_; ++f) {
      auto* out = static_cast<double*>(dst_fields[f]);
      for (std::int64_t i = recv.offsets[k]; i < recv.offsets[k + 1]; ++i)
        out[recv.index[static_cast<std::size_t>(i)]] = *in++;
    }
  }
}

Traffic BaselineExchange::traffic() const {
  const PlanSide& send = plan_.send();
  return {static_cast<std::int64_t>(send.peer_count()),
          send.total() * fields_ * static_cast<std::int64_t>(sizeof(double)),
          send.peer_count() + plan_.recv().peer_count() > 0 ? 1 : 0};
}

}  // namespace ferry::bench
