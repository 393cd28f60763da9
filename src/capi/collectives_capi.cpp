// The C API of the collective algorithm variants: ferry::Alltoallv and ferry::Allreduce
// behind ferry_alltoallv and ferry_allreduce, and the tuning cache's choice of each.
//
// The set-up functions read their C arguments inside an agreement before the first
// collective call, so a NULL array or an unknown constant on one rank fails every rank
// alike.
#include <optional>
#include <string>
#include <vector>

#include "capi/c_arrays.hpp"
#include "capi/c_enums.hpp"
#include "capi/firewall.hpp"
#include "ferry/collectives.h"
#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "util/agree.hpp"

struct ferry_alltoallv {
  ferry::Alltoallv alltoallv;
};

struct ferry_allreduce {
  ferry::Allreduce allreduce;
};

namespace {

using ferry::detail::copied;
using ferry::detail::datatype_of;
using ferry::detail::deref;
using ferry::detail::enumerator;
using ferry::detail::guarded;
using ferry::detail::output;

constexpr const char* kAlltoallvNames =
    "FERRY_ALLTOALLV_MPI, FERRY_ALLTOALLV_RING, FERRY_ALLTOALLV_SWAP or FERRY_ALLTOALLV_BRUCK";
constexpr const char* kAllreduceNames =
    "FERRY_ALLREDUCE_MPI, FERRY_ALLREDUCE_DOUBLING, FERRY_ALLREDUCE_HALVING or "
    "FERRY_ALLREDUCE_RING";

void check_comm(MPI_Comm comm, const char* function) {
  FERRY_CHECK(comm != MPI_COMM_NULL, ferry::Errc::Arg, function, ": comm is MPI_COMM_NULL");
}

// The tuning cache's choice for a collective of `bytes`, or `fallback`: every rank
// reads its arguments, agrees on them, then rank 0 reads the file.
template <class Algorithm, class Lookup>
void tuned(MPI_Comm comm, const char* cache, std::int64_t bytes, int fallback, int last,
           const char* names, int* algorithm, const char* function, Lookup&& lookup) {
  check_comm(comm, function);
  Algorithm chosen{};
  ferry::detail::agree_on(ferry::Comm::view(comm), [&] {
    chosen = enumerator<Algorithm>(fallback, last, function, "fallback", names);
    FERRY_CHECK(bytes >= 0, ferry::Errc::Arg, function, ": bytes is ", bytes,
                ", expected 0 or more");
    output(algorithm, function);
  });
  *algorithm = static_cast<int>(lookup(comm, cache ? cache : "", bytes, chosen));
}

}  // namespace

extern "C" {

int ferry_alltoallv_tuned_algorithm(MPI_Comm comm, const char* cache, int64_t block_bytes,
                                    int fallback, int* algorithm) {
  const char* function = "ferry_alltoallv_tuned_algorithm";
  return guarded(function, [&] {
    tuned<ferry::AlltoallvAlgorithm>(comm, cache, block_bytes, fallback, FERRY_ALLTOALLV_BRUCK,
                                     kAlltoallvNames, algorithm, function,
                                     ferry::tuned_alltoallv_algorithm);
  });
}

int ferry_allreduce_tuned_algorithm(MPI_Comm comm, const char* cache, int64_t vector_bytes,
                                    int fallback, int* algorithm) {
  const char* function = "ferry_allreduce_tuned_algorithm";
  return guarded(function, [&] {
    tuned<ferry::AllreduceAlgorithm>(comm, cache, vector_bytes, fallback, FERRY_ALLREDUCE_RING,
                                     kAllreduceNames, algorithm, function,
                                     ferry::tuned_allreduce_algorithm);
  });
}

int ferry_alltoallv_create(MPI_Comm comm, int algorithm, int type, const int* send_counts,
                           const int* send_displs, const int* recv_counts,
                           const int* recv_displs, ferry_alltoallv** alltoallv) {
  const char* function = "ferry_alltoallv_create";
  return guarded(function, [&] {
    check_comm(comm, function);
    const ferry::Comm c = ferry::Comm::view(comm);
    ferry::AlltoallvAlgorithm chosen{};
    ferry::Datatype datatype{};
    std::vector<int> counts[4];
    ferry::detail::agree_on(c, [&] {
      output(alltoallv, function) = nullptr;
      chosen = enumerator<ferry::AlltoallvAlgorithm>(algorithm, FERRY_ALLTOALLV_BRUCK, function,
                                                     "algorithm", kAlltoallvNames);
      datatype = datatype_of(type, function);
      const int* arrays[4] = {send_counts, send_displs, recv_counts, recv_displs};
      const char* names[4] = {"send_counts", "send_displs", "recv_counts", "recv_displs"};
      for (int k = 0; k < 4; ++k) counts[k] = copied(arrays[k], c.size(), function, names[k]);
    });
    *alltoallv = new ferry_alltoallv{ferry::Alltoallv(comm, chosen, datatype, counts[0],
                                                      counts[1], counts[2], counts[3])};
  });
}

int ferry_alltoallv_execute(ferry_alltoallv* alltoallv, const void* send, void* recv) {
  const char* function = "ferry_alltoallv_execute";
  return guarded(function, [&] {
    deref(alltoallv, function, "alltoallv").alltoallv.execute(send, recv);
  });
}

int ferry_alltoallv_get_algorithm(const ferry_alltoallv* alltoallv, int* algorithm) {
  const char* function = "ferry_alltoallv_get_algorithm";
  return guarded(function, [&] {
    output(algorithm, function) =
        static_cast<int>(deref(alltoallv, function, "alltoallv").alltoallv.algorithm());
  });
}

int ferry_alltoallv_destroy(ferry_alltoallv** alltoallv) {
  return guarded("ferry_alltoallv_destroy", [&] {
    if (alltoallv == nullptr) return;
    delete *alltoallv;
    *alltoallv = nullptr;
  });
}

int ferry_allreduce_create(MPI_Comm comm, int algorithm, int type, int count,
                           ferry_allreduce** allreduce) {
  const char* function = "ferry_allreduce_create";
  return guarded(function, [&] {
    check_comm(comm, function);
    ferry::AllreduceAlgorithm chosen{};
    ferry::Datatype datatype{};
    ferry::detail::agree_on(ferry::Comm::view(comm), [&] {
      output(allreduce, function) = nullptr;
      chosen = enumerator<ferry::AllreduceAlgorithm>(algorithm, FERRY_ALLREDUCE_RING, function,
                                                     "algorithm", kAllreduceNames);
      datatype = datatype_of(type, function);
    });
    *allreduce = new ferry_allreduce{ferry::Allreduce(comm, chosen, datatype, count)};
  });
}

int ferry_allreduce_execute(ferry_allreduce* allreduce, const void* send, void* recv) {
  const char* function = "ferry_allreduce_execute";
  return guarded(function, [&] {
    deref(allreduce, function, "allreduce").allreduce.execute(send, recv);
  });
}

int ferry_allreduce_get_algorithm(const ferry_allreduce* allreduce, int* algorithm) {
  const char* function = "ferry_allreduce_get_algorithm";
  return guarded(function, [&] {
    output(algorithm, function) =
        static_cast<int>(deref(allreduce, function, "allreduce").allreduce.algorithm());
  });
}

int ferry_allreduce_destroy(ferry_allreduce** allreduce) {
  return guarded("ferry_allreduce_destroy", [&] {
    if (allreduce == nullptr) return;
    delete *allreduce;
    *allreduce = nullptr;
  });
}

}  // extern "C"
