#include "engines/tuning/plan_signature.hpp"

#include <algorithm>
#include <cstdint>

#include "util/mpi.hpp"
#include "util/mpi_library.hpp"

namespace ferry::detail {

std::string mpi_library() {
  std::string version = mpi_library_version();
  std::replace(version.begin(), version.end(), '|', '/');
  return version;
}

namespace {

constexpr int kSums = 5;

// A user op over elements of kSums int64 sums followed by int64 maxima. MPI applies
// a user op to whole elements, so reducing one such element sums and maximises in a
// single collective (a signature costs one latency-bound reduction, not two).
void sum_then_max(void* in, void* inout, int* count, MPI_Datatype* type) {
  int element_bytes = 0;
  MPI_Type_size(*type, &element_bytes);
  const int words = element_bytes / static_cast<int>(sizeof(std::int64_t));
  const auto* a = static_cast<const std::int64_t*>(in);
  auto* b = static_cast<std::int64_t*>(inout);
  for (int e = 0; e < *count; ++e, a += words, b += words)
    for (int w = 0; w < words; ++w) b[w] = w < kSums ? b[w] + a[w] : std::max(b[w], a[w]);
}

// Sums the first kSums values of `values` and takes the maxima of the rest over `comm`.
void reduce_sums_and_maxima(std::vector<std::int64_t>& values, const Comm& comm) {
  MPI_Datatype element = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  int rc = MPI_Type_contiguous(mpi_count<int>(values.size(), "plan_signature: values"),
                               MPI_INT64_T, &element);
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&element);
  if (rc == MPI_SUCCESS) rc = MPI_Op_create(sum_then_max, 1, &op);
  if (rc == MPI_SUCCESS) rc = MPI_Allreduce(MPI_IN_PLACE, values.data(), 1, element, op, comm.get());
  if (op != MPI_OP_NULL) MPI_Op_free(&op);
  if (element != MPI_DATATYPE_NULL) MPI_Type_free(&element);
  FERRY_CALL_MPI(rc);
}

// The words of a signature each rank knows alone: before the reduced ones, between
// them, and at the end.
struct LocalWords {
  std::string head, middle, tail;
};

LocalWords local_words(const Plan& plan, const Comm& comm, std::size_t point_bytes) {
  return {cat("ranks=", comm.size(), " "),
          cat(" points=", plan.global_size(), " point_bytes=", point_bytes, " "),
          cat(" mpi=", mpi_library())};
}

}  // namespace

PlanSignature plan_signature(const Plan& plan, const Comm& comm, std::size_t point_bytes,
                             std::vector<std::int64_t>& also_max) {
  const auto bytes = static_cast<std::int64_t>(point_bytes);
  const auto sends = static_cast<std::int64_t>(plan.send().peer_count());
  const auto recvs = static_cast<std::int64_t>(plan.recv().peer_count());
  const std::int64_t sent = plan.send().total() * bytes;
  const bool involved = plan.src_member() || plan.dst_member();
  // kSums sums, then the maxima.
  std::vector<std::int64_t> v = {plan.src_member() ? 1 : 0, plan.dst_member() ? 1 : 0, sends, sent,
                                 involved ? 1 : 0,          std::max(sends, recvs),   sent};
  v.insert(v.end(), also_max.begin(), also_max.end());
  reduce_sums_and_maxima(v, comm);
  std::copy(v.begin() + kSums + 2, v.end(), also_max.begin());
  const LocalWords local = local_words(plan, comm, point_bytes);
  return {cat(local.head, "src_ranks=", v[0], " dst_ranks=", v[1], local.middle,
              "messages=", v[2], " max_messages=", v[5], " bytes=", v[3], " max_bytes=", v[6],
              local.tail),
          static_cast<int>(v[4])};
}

std::function<bool(const std::string& signature)> signature_filter(const Plan& plan,
                                                                   const Comm& comm,
                                                                   std::size_t point_bytes) {
  return [local = local_words(plan, comm, point_bytes)](const std::string& signature) {
    const std::string& tail = local.tail;
    const bool ends_with_tail =
        signature.size() >= tail.size() &&
        signature.compare(signature.size() - tail.size(), tail.size(), tail) == 0;
    return signature.rfind(local.head, 0) == 0 &&
           signature.find(local.middle) != std::string::npos && ends_with_tail;
  };
}

}  // namespace ferry::detail
