// The C entry points that only the Fortran modules call: MPI handle conversion
// (Fortran passes integer communicators, MPI_Fint) and error records for the
// modules' own argument checks, agreed over the ranks before a collective call.
// Every body runs through the C layer's firewall.
#include <mpi.h>

#include <optional>
#include <string>
#include <vector>

#include "capi/firewall.hpp"
#include "ferry/comm.hpp"
#include "ferry/ferry.h"
#include "util/agree.hpp"

namespace {

// Runs a shim body that ends in a C API call: that call's code is the shim's.
template <class Body>
int forward(const char* function, Body&& body) noexcept {
  int code = FERRY_SUCCESS;
  const int thrown = ferry::detail::guarded(function, [&] { code = body(); });
  return thrown != FERRY_SUCCESS ? thrown : code;
}

}  // namespace

extern "C" {

int ferry_exchange_create_f(MPI_Fint comm, const ferry_layout* src, const ferry_layout* dst,
                            const char* engine, ferry_exchange** exchange) {
  return forward("ferry_exchange_create", [&] {
    return ferry_exchange_create(MPI_Comm_f2c(comm), src, dst, engine, exchange);
  });
}

// `names` holds `count` NUL-terminated component names one after the other.
int ferry_coupler_create_f(MPI_Fint comm, int count, const char* names, const char* config_path,
                           ferry_coupler** coupler) {
  return forward("ferry_coupler_create", [&] {
    std::vector<const char*> list;
    for (int i = 0; i < count; ++i, names += std::char_traits<char>::length(names) + 1)
      list.push_back(names);
    return ferry_coupler_create(MPI_Comm_f2c(comm), count, list.data(), config_path, coupler);
  });
}

int ferry_coupler_local_comm_f(const ferry_coupler* coupler, const char* component, MPI_Fint* comm) {
  return forward("ferry_coupler_local_comm", [&] {
    MPI_Comm local = MPI_COMM_NULL;
    const int code = ferry_coupler_local_comm(coupler, component, &local);
    if (code == FERRY_SUCCESS) *comm = MPI_Comm_c2f(local);
    return code;
  });
}

// Keeps the module's message about a bad argument of `function` as the last error.
int ferry_record_error_f(const char* function, int code, const char* message) {
  return ferry::detail::guarded(function, [&] {
    throw ferry::Error(static_cast<ferry::Errc>(code), message);
  });
}

// Collective over comm: agrees on the argument errors the modules found on some ranks
// before a collective call, so that every rank fails alike. `code` is FERRY_SUCCESS
// or this rank's error; its message is `problem`, " on rank R", then `rest`.
int ferry_agree_argument_error_f(MPI_Fint comm, const char* function, int code,
                                 const char* problem, const char* rest) {
  return ferry::detail::guarded(function, [&] {
    const ferry::Comm view = ferry::Comm::view(MPI_Comm_f2c(comm));
    std::optional<ferry::Error> local;
    if (code != FERRY_SUCCESS) {
      const std::string text = std::string(problem) + " on rank " + std::to_string(view.rank()) +
                               rest;
      local = ferry::Error(static_cast<ferry::Errc>(code), text);
    }
    ferry::detail::agree(view, local);
  });
}

}  // extern "C"
