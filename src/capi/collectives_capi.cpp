// The C API of the collective algorithm variants: ferry::Alltoallv and ferry::Allreduce
// behind ferry_alltoallv and ferry_allreduce, and the tuning cache's choice of each.
//
// The set-up functions read their C arguments inside an agreement before the first
// collective call, so a NULL array or an unknown constant on one rank fails every rank
// alike.
#include <optional>
#include <string>
#include <vector>

#include "capi/c_call.hpp"
#include "ferry/collectives.h"
#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "util/agree.hpp"

struct ferry_alltoallv {
  static constexpr const char* kWhat = "alltoallv";
  ferry::Alltoallv alltoallv;
};

struct ferry_allreduce {
  static constexpr const char* kWhat = "allreduce";
  ferry::Allreduce allreduce;
};

namespace {

using ferry::detail::c_call;
using ferry::detail::CCall;
using ferry::detail::destroy_handle;

constexpr const char* kAlltoallvNames =
    "FERRY_ALLTOALLV_MPI, FERRY_ALLTOALLV_RING, FERRY_ALLTOALLV_SWAP or FERRY_ALLTOALLV_BRUCK";
constexpr const char* kAllreduceNames =
    "FERRY_ALLREDUCE_MPI, FERRY_ALLREDUCE_DOUBLING, FERRY_ALLREDUCE_HALVING or "
    "FERRY_ALLREDUCE_RING";

// The body of a tuned-algorithm lookup: the tuning cache's choice for a collective of
// `bytes`, or `fallback`. Every rank reads its arguments, agrees on them, then rank 0
// reads the file.
template <class Algorithm, class Lookup>
int tuned(const char* function, MPI_Comm comm, const char* cache, std::int64_t bytes,
          int fallback, int last, const char* names, int* algorithm, Lookup&& lookup) {
  return c_call(function, [&](const CCall& call) {
    Algorithm chosen{};
    ferry::detail::agree_on(ferry::Comm::view(call.comm(comm)), [&] {
      chosen = call.choice<Algorithm>(fallback, last, "fallback", names);
      FERRY_CHECK(bytes >= 0, ferry::Errc::Arg, function, ": bytes is ", bytes,
                  ", expected 0 or more");
      call.out(algorithm);
    });
    *algorithm = static_cast<int>(lookup(comm, cache ? cache : "", bytes, chosen));
  });
}

// The body of a collective's create: reads and agrees on the algorithm and the type
// (and what `read` reads) before make(algorithm, datatype) sets the collective up.
template <class Algorithm, class Handle, class Read, class Make>
int create_collective(const char* function, MPI_Comm comm, int algorithm, int last,
                      const char* names, int type, Handle** out, Read&& read, Make&& make) {
  return c_call(function, [&](const CCall& call) {
    Algorithm chosen{};
    ferry::Datatype datatype{};
    ferry::detail::agree_on(ferry::Comm::view(call.comm(comm)), [&] {
      call.out(out) = nullptr;
      chosen = call.choice<Algorithm>(algorithm, last, "algorithm", names);
      datatype = call.datatype(type);
      read(call);
    });
    *out = make(chosen, datatype);
  });
}

}  // namespace

extern "C" {

int ferry_alltoallv_tuned_algorithm(MPI_Comm comm, const char* cache, int64_t block_bytes,
                                    int fallback, int* algorithm) {
  return tuned<ferry::AlltoallvAlgorithm>("ferry_alltoallv_tuned_algorithm", comm, cache,
                                          block_bytes, fallback, FERRY_ALLTOALLV_BRUCK,
                                          kAlltoallvNames, algorithm,
                                          ferry::tuned_alltoallv_algorithm);
}

int ferry_allreduce_tuned_algorithm(MPI_Comm comm, const char* cache, int64_t vector_bytes,
                                    int fallback, int* algorithm) {
  return tuned<ferry::AllreduceAlgorithm>("ferry_allreduce_tuned_algorithm", comm, cache,
                                          vector_bytes, fallback, FERRY_ALLREDUCE_RING,
                                          kAllreduceNames, algorithm,
                                          ferry::tuned_allreduce_algorithm);
}

int ferry_alltoallv_create(MPI_Comm comm, int algorithm, int type, const int* send_counts,
                           const int* send_displs, const int* recv_counts,
                           const int* recv_displs, ferry_alltoallv** alltoallv) {
  std::vector<int> counts[4];
  return create_collective<ferry::AlltoallvAlgorithm>(
      "ferry_alltoallv_create", comm, algorithm, FERRY_ALLTOALLV_BRUCK, kAlltoallvNames, type,
      alltoallv,
      [&](const CCall& call) {
        const int size = ferry::Comm::view(comm).size();
        const int* arrays[4] = {send_counts, send_displs, recv_counts, recv_displs};
        const char* names[4] = {"send_counts", "send_displs", "recv_counts", "recv_displs"};
        for (int k = 0; k < 4; ++k) counts[k] = call.array(arrays[k], size, names[k]);
      },
      [&](ferry::AlltoallvAlgorithm chosen, ferry::Datatype datatype) {
        return new ferry_alltoallv{
            ferry::Alltoallv(comm, chosen, datatype, counts[0], counts[1], counts[2], counts[3])};
      });
}

int ferry_alltoallv_execute(ferry_alltoallv* alltoallv, const void* send, void* recv) {
  return c_call("ferry_alltoallv_execute",
                [&](const CCall& call) { call.handle(alltoallv).alltoallv.execute(send, recv); });
}

int ferry_alltoallv_get_algorithm(const ferry_alltoallv* alltoallv, int* algorithm) {
  return c_call("ferry_alltoallv_get_algorithm", [&](const CCall& call) {
    call.out(algorithm) = static_cast<int>(call.handle(alltoallv).alltoallv.algorithm());
  });
}

int ferry_alltoallv_destroy(ferry_alltoallv** alltoallv) {
  return destroy_handle("ferry_alltoallv_destroy", alltoallv);
}

int ferry_allreduce_create(MPI_Comm comm, int algorithm, int type, int count,
                           ferry_allreduce** allreduce) {
  return create_collective<ferry::AllreduceAlgorithm>(
      "ferry_allreduce_create", comm, algorithm, FERRY_ALLREDUCE_RING, kAllreduceNames, type,
      allreduce, [](const CCall&) {},
      [&](ferry::AllreduceAlgorithm chosen, ferry::Datatype datatype) {
        return new ferry_allreduce{ferry::Allreduce(comm, chosen, datatype, count)};
      });
}

int ferry_allreduce_execute(ferry_allreduce* allreduce, const void* send, void* recv) {
  return c_call("ferry_allreduce_execute",
                [&](const CCall& call) { call.handle(allreduce).allreduce.execute(send, recv); });
}

int ferry_allreduce_get_algorithm(const ferry_allreduce* allreduce, int* algorithm) {
  return c_call("ferry_allreduce_get_algorithm", [&](const CCall& call) {
    call.out(algorithm) = static_cast<int>(call.handle(allreduce).allreduce.algorithm());
  });
}

int ferry_allreduce_destroy(ferry_allreduce** allreduce) {
  return destroy_handle("ferry_allreduce_destroy", allreduce);
}

}  // extern "C"
