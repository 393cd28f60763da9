// ferry.Alltoallv, ferry.Allreduce, their algorithm enums and the tuned_* look-ups:
// the collective algorithms of ferry/collectives.hpp over NumPy arrays.
//
// The constructors and the look-ups are collective: each rank reads its Python
// arguments inside one agreement, so a bad argument on one rank raises the same
// ferry.Error on every rank; the library then agrees that the ranks' algorithms,
// dtypes and counts fit together. execute() checks its arrays on each rank before
// anything moves, as Exchange.execute does, and adds no communication of its own: a
// wrong array raises on its rank (under `python -m mpi4py` that ends the job).
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/arguments.hpp"
#include "bindings/bindings.hpp"
#include "bindings/buffers.hpp"
#include "bindings/comm_handle.hpp"
#include "bindings/datatypes.hpp"
#include "bindings/describe.hpp"
#include "bindings/nd_arrays.hpp"
#include "ferry/collectives.hpp"
#include "ferry/comm.hpp"
#include "ferry/error.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"

namespace ferry::python {

using namespace nb::literals;

namespace {

template <class Algorithm>
using AlgorithmNames = std::initializer_list<std::pair<const char*, Algorithm>>;

// An algorithm and its name, as the library spells it ("doubling").
template <class Algorithm>
std::pair<const char*, Algorithm> named(Algorithm algorithm) {
  return {algorithm_name(algorithm), algorithm};
}

const AlgorithmNames<AlltoallvAlgorithm> kAlltoallvNames = {
    named(AlltoallvAlgorithm::Mpi), named(AlltoallvAlgorithm::Ring),
    named(AlltoallvAlgorithm::Swap), named(AlltoallvAlgorithm::Bruck)};
const AlgorithmNames<AllreduceAlgorithm> kAllreduceNames = {
    named(AllreduceAlgorithm::Mpi), named(AllreduceAlgorithm::RecursiveDoubling),
    named(AllreduceAlgorithm::RecursiveHalving), named(AllreduceAlgorithm::Ring)};

// Collective over `c`: runs `read`, which reads this rank's Python arguments, and
// agrees on whether it failed anywhere (a Python exception counts as Errc::Arg).
template <class Read>
void read_agreed(MPI_Comm c, const std::string& function, Read&& read) {
  detail::agree_on(Comm::view(c), [&] { read_python_arguments(function, read); });
}

// MPI counts or displacements: a 1-D sequence of integers, each within a C int.
std::vector<int> mpi_counts(nb::handle values, const std::string& what) {
  const auto a = numpy_array<std::int64_t>(values, "int64", {1}, what);
  std::vector<int> result(a.shape(0));
  for (std::size_t i = 0; i < result.size(); ++i) {
    const std::int64_t value = a.data()[i];
    FERRY_CHECK(value >= INT_MIN && value <= INT_MAX, Errc::Overflow, what, "[", i, "] is ",
                value, ", beyond the range of an MPI count (a C int, up to ", INT_MAX, ")");
    result[i] = static_cast<int>(value);
  }
  return result;
}

// The values a buffer must hold: up to the end of its last non-empty block.
std::int64_t reach(const std::vector<int>& counts, const std::vector<int>& displs) {
  std::int64_t end = 0;
  for (std::size_t i = 0; i < counts.size() && i < displs.size(); ++i)
    if (counts[i] > 0) end = std::max(end, std::int64_t{displs[i]} + counts[i]);
  return end;
}

std::string on_rank(int rank) { return " on rank " + std::to_string(rank); }

// What execute() needs of one array: `values` values of `type`, or at least that
// many when `at_least`.
struct FlatSpec {
  Datatype type;
  std::int64_t values;
  bool at_least;
};

// The data of `array`, a 1-D array as `spec` says, checked as the arrays of the
// exchanges are (dtype, C order, writable when `writable`), never copied.
void* flat_data(nb::handle array, const FlatSpec& spec, const BufferContext& context,
                bool writable) {
  std::int64_t values = spec.values;
  nb::ndarray<nb::ro> a;
  if (nb::try_cast(array, a, false) && a.ndim() == 1 && a.dtype() == dlpack_dtype(spec.type)) {
    values = static_cast<std::int64_t>(a.size());
    if (values < spec.values || (values > spec.values && !spec.at_least))
      throw Error(Errc::ArgSize,
                  context.what + " has " + std::to_string(values) + " values" +
                      on_rank(context.rank) + ", expected " + (spec.at_least ? "at least " : "") +
                      std::to_string(spec.values) + ". " + context.hint,
                  context.rank);
  }
  const BufferSpec buffer{spec.type, values};
  if (writable) return writable_buffer(array, buffer, context);
  return const_cast<void*>(readable_buffer(array, buffer, context));
}

// Raises Errc::Arg if the `send_bytes` at `send` and the `recv_bytes` at `recv` overlap.
void check_apart(const std::string& function, int rank, const void* send,
                 std::int64_t send_bytes, const void* recv, std::int64_t recv_bytes,
                 const char* fix) {
  const auto s = reinterpret_cast<std::uintptr_t>(send);
  const auto r = reinterpret_cast<std::uintptr_t>(recv);
  const bool overlap = send_bytes > 0 && recv_bytes > 0 &&
                       s < r + static_cast<std::uintptr_t>(recv_bytes) &&
                       r < s + static_cast<std::uintptr_t>(send_bytes);
  if (overlap)
    throw Error(Errc::Arg, function + ": send and recv share memory" + on_rank(rank) + "; " + fix,
                rank);
}

class AlltoallvBinding {
 public:
  AlltoallvBinding(nb::handle comm, nb::handle send_counts, nb::handle send_displs,
                   nb::handle recv_counts, nb::handle recv_displs, nb::handle dtype,
                   nb::handle algorithm) {
    const std::string function = "Alltoallv";
    const MPI_Comm c = comm_from_python(comm, function);
    rank_ = Comm::view(c).rank();
    AlltoallvAlgorithm chosen{};
    std::vector<int> sc, sd, rc, rd;
    read_agreed(c, function, [&] {
      chosen = enum_from_python(algorithm, kAlltoallvNames, function + ": algorithm");
      type_ = datatype_from_python(dtype, function);
      sc = mpi_counts(send_counts, function + ": send_counts");
      sd = mpi_counts(send_displs, function + ": send_displs");
      rc = mpi_counts(recv_counts, function + ": recv_counts");
      rd = mpi_counts(recv_displs, function + ": recv_displs");
    });
    send_size_ = reach(sc, sd);
    recv_size_ = reach(rc, rd);
    nb::gil_scoped_release unlocked;  // collective: other Python threads may run meanwhile
    alltoallv_ = std::make_unique<Alltoallv>(c, chosen, type_, std::move(sc), std::move(sd),
                                             std::move(rc), std::move(rd));
  }

  void execute(nb::handle send, nb::handle recv) {
    const std::string function = "Alltoallv.execute";
    const void* s = flat_data(send, {type_, send_size_, true},
                              {function + ": send", rank_,
                               "The send counts and displacements reach that far "
                               "(Alltoallv.send_size)"},
                              false);
    void* r = flat_data(recv, {type_, recv_size_, true},
                        {function + ": recv", rank_,
                         "The receive counts and displacements reach that far "
                         "(Alltoallv.recv_size)"},
                        true);
    const auto bytes = static_cast<std::int64_t>(datatype_size(type_));
    check_apart(function, rank_, s, send_size_ * bytes, r, recv_size_ * bytes,
                "pass separate arrays");
    nb::gil_scoped_release unlocked;
    alltoallv_->execute(s, r);
  }

  AlltoallvAlgorithm algorithm() const { return alltoallv_->algorithm(); }
  nb::object dtype() const { return numpy_dtype(type_); }
  std::int64_t send_size() const { return send_size_; }
  std::int64_t recv_size() const { return recv_size_; }

 private:
  std::unique_ptr<Alltoallv> alltoallv_;
  Datatype type_ = Datatype::Float64;
  std::int64_t send_size_ = 0;
  std::int64_t recv_size_ = 0;
  int rank_ = -1;
};

class AllreduceBinding {
 public:
  AllreduceBinding(nb::handle comm, nb::handle count, nb::handle dtype, nb::handle algorithm) {
    const std::string function = "Allreduce";
    const MPI_Comm c = comm_from_python(comm, function);
    rank_ = Comm::view(c).rank();
    AllreduceAlgorithm chosen{};
    read_agreed(c, function, [&] {
      chosen = enum_from_python(algorithm, kAllreduceNames, function + ": algorithm");
      type_ = datatype_from_python(dtype, function);
      const std::int64_t n = index_from_python(count, function + ": count");
      FERRY_CHECK(n >= 0, Errc::Arg, function, ": count is ", n, on_rank(rank_),
                  ", expected >= 0 (the values summed per rank)");
      FERRY_CHECK(n <= INT_MAX, Errc::Overflow, function, ": count is ", n,
                  ", beyond the range of an MPI count (a C int, up to ", INT_MAX, ")");
      count_ = static_cast<int>(n);
    });
    nb::gil_scoped_release unlocked;  // collective: other Python threads may run meanwhile
    allreduce_ = std::make_unique<Allreduce>(c, chosen, type_, count_);
  }

  nb::object execute(nb::handle send, nb::handle recv) {
    const std::string function = "Allreduce.execute";
    const FlatSpec spec{type_, count_, false};
    const std::string hint =
        "The Allreduce was set up for count=" + std::to_string(count_) + " values per rank";
    nb::object out = nb::borrow(recv);
    if (recv.is_none())
      out = nb::module_::import_("numpy").attr("empty")(count_, "dtype"_a = numpy_dtype(type_));
    const void* s = flat_data(send, spec, {function + ": send", rank_, hint}, false);
    void* r = flat_data(out, spec, {function + ": recv", rank_, hint}, true);
    if (s != r) {  // the same array sums in place
      const auto bytes = static_cast<std::int64_t>(datatype_size(type_)) * count_;
      check_apart(function, rank_, s, bytes, r, bytes,
                  "pass the same array twice to sum in place, or separate arrays");
    }
    {
      nb::gil_scoped_release unlocked;
      allreduce_->execute(s, r);
    }
    return out;
  }

  AllreduceAlgorithm algorithm() const { return allreduce_->algorithm(); }
  nb::object dtype() const { return numpy_dtype(type_); }
  int count() const { return count_; }

 private:
  std::unique_ptr<Allreduce> allreduce_;
  Datatype type_ = Datatype::Float64;
  int count_ = 0;
  int rank_ = -1;
};

// ferry.<name>(comm, cache, <bytes_name>, fallback="mpi"), collective: the algorithm
// the tuning cache records, read by `lookup` once the ranks agree that their
// arguments can be read.
template <class Algorithm>
void bind_tuned(nb::module_& m, const char* name, const char* bytes_name,
                const AlgorithmNames<Algorithm>& names,
                Algorithm (*lookup)(MPI_Comm, const std::string&, std::int64_t, Algorithm),
                const char* doc) {
  const auto tuned = [name, bytes_name, known = &names, lookup](
                         nb::handle comm, nb::handle cache, nb::handle bytes,
                         nb::handle fallback) {
    const std::string function = name;
    const MPI_Comm c = comm_from_python(comm, function);
    std::string path;
    std::int64_t size = 0;
    Algorithm otherwise{};
    read_agreed(c, function, [&] {
      if (!cache.is_none()) {
        nb::object text;
        try {
          text = nb::module_::import_("os").attr("fspath")(cache);
        } catch (const nb::python_error&) {
        }
        if (!text.is_valid() || !nb::isinstance<nb::str>(text))
          throw Error(Errc::Arg, function + ": cache is " + repr_text(cache) +
                                     "; give the path of the tuning cache file as a str or a "
                                     "pathlib.Path, or None for no cache");
        path = nb::cast<std::string>(text);
      }
      size = index_from_python(bytes, function + ": " + bytes_name);
      otherwise = enum_from_python(fallback, *known, function + ": fallback");
    });
    nb::gil_scoped_release unlocked;
    return lookup(c, path, size, otherwise);
  };
  m.def(name, tuned, "comm"_a, "cache"_a.none(), nb::arg(bytes_name).none(),
        "fallback"_a.none() = "mpi", doc);
}

// ferry.<name>: an enum of the algorithms of `names`, each named by its name in
// capitals ("DOUBLING") and documented by its entry of `docs`. The enum's doc string
// is `what` and the names that may stand for it.
template <class Algorithm>
void bind_algorithms(nb::module_& m, const char* name, const std::string& what,
                     const AlgorithmNames<Algorithm>& names,
                     std::initializer_list<const char*> docs) {
  std::string words;
  for (const auto& entry : names)
    words += (words.empty() ? "\"" : ", \"") + std::string(entry.first) + "\"";
  nb::enum_<Algorithm> algorithms(m, name, (what + " (or " + words + ").").c_str());
  const char* const* doc = docs.begin();
  for (const auto& [word, algorithm] : names) {
    std::string capitals(word);
    for (char& c : capitals) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    algorithms.value(capitals.c_str(), algorithm, *doc++);
  }
}

}  // namespace

void bind_collectives(nb::module_& m) {
  bind_algorithms(m, "AlltoallvAlgorithm", "How Alltoallv moves its blocks", kAlltoallvNames,
                  {"one MPI_Alltoallv",
                   "P-1 rounds of MPI_Sendrecv: round k sends to rank+k, receives from rank-k",
                   "pairwise swaps, one partner per round, every pair once",
                   "ceil(log2 P) rounds forwarding blocks (Bruck et al.): fewer messages, "
                   "more bytes"});
  bind_algorithms(m, "AllreduceAlgorithm", "How Allreduce sums the ranks' vectors",
                  kAllreduceNames,
                  {"one MPI_Allreduce", "recursive doubling: log2 P swaps of the whole vector",
                   "reduce-scatter by recursive halving, then allgather by recursive doubling",
                   "reduce-scatter then allgather around a ring, 2(P-1) steps of 1/P of the "
                   "vector"});

  nb::class_<AlltoallvBinding>(
      m, "Alltoallv",
      "An all-to-all-v with fixed counts, set up once and executed many times; every\n"
      "algorithm delivers exactly what MPI_Alltoallv delivers.\n\n"
      "Collective over `comm` (an mpi4py communicator, duplicated). Counts and\n"
      "displacements are in values of `dtype` (float64, float32, int32 or int64), one\n"
      "per rank, as for MPI_Alltoallv; rank s's recv_counts[d] must equal rank d's\n"
      "send_counts[s]. `algorithm`: an AlltoallvAlgorithm or its name. Raises\n"
      "ferry.Error, the same on every rank.")
      .def(nb::init<nb::handle, nb::handle, nb::handle, nb::handle, nb::handle, nb::handle,
                    nb::handle>(),
           "comm"_a, "send_counts"_a.none(), "send_displs"_a.none(), "recv_counts"_a.none(),
           "recv_displs"_a.none(), "dtype"_a.none() = "float64", "algorithm"_a.none() = "mpi")
      .def("execute", &AlltoallvBinding::execute, "send"_a.none(), "recv"_a.none(),
           "Collective: sends block d of `send` (send_counts[d] values at send_displs[d])\n"
           "to rank d and writes rank s's block into `recv` at recv_displs[s]. Both are\n"
           "1-D, C-contiguous arrays of the dtype, of at least send_size and recv_size\n"
           "values (None where that is 0), not sharing memory; `recv` is writable. Each\n"
           "rank checks its arrays before anything moves.")
      .def("__repr__",
           [](nb::handle self) {
             return described(self, "Alltoallv", {"algorithm", "dtype", "send_size", "recv_size"});
           })
      .def_prop_ro("algorithm", &AlltoallvBinding::algorithm, "The AlltoallvAlgorithm.")
      .def_prop_ro("dtype", &AlltoallvBinding::dtype, "The numpy.dtype of the values.")
      .def_prop_ro("send_size", &AlltoallvBinding::send_size,
                   "Values `send` must hold: the end of the last non-empty send block.")
      .def_prop_ro("recv_size", &AlltoallvBinding::recv_size,
                   "Values `recv` must hold: the end of the last non-empty receive block.");

  nb::class_<AllreduceBinding>(
      m, "Allreduce",
      "A sum over all ranks of a vector of `count` values, set up once and executed many\n"
      "times; every rank receives the same bits.\n\n"
      "Collective over `comm` (duplicated); `count`, `dtype` (float64, float32, int32 or\n"
      "int64) and `algorithm` (an AllreduceAlgorithm or its name) must be the same on\n"
      "every rank. Raises ferry.Error, the same on every rank.")
      .def(nb::init<nb::handle, nb::handle, nb::handle, nb::handle>(), "comm"_a,
           "count"_a.none(), "dtype"_a.none() = "float64", "algorithm"_a.none() = "mpi")
      .def("execute", &AllreduceBinding::execute, "send"_a.none(), "recv"_a.none() = nb::none(),
           "Collective: the element-wise sum over all ranks of `send` (a 1-D, C-contiguous\n"
           "array of `count` values of the dtype), written into `recv` and returned. recv\n"
           "None: a new array; recv the same array as send: in place. Each rank checks\n"
           "its arrays before anything moves.")
      .def("__repr__",
           [](nb::handle self) {
             return described(self, "Allreduce", {"algorithm", "dtype", "count"});
           })
      .def_prop_ro("algorithm", &AllreduceBinding::algorithm, "The AllreduceAlgorithm.")
      .def_prop_ro("dtype", &AllreduceBinding::dtype, "The numpy.dtype of the values.")
      .def_prop_ro("count", &AllreduceBinding::count, "Values summed per rank.");

  bind_tuned(m, "tuned_alltoallv_algorithm", "block_bytes", kAlltoallvNames,
             &tuned_alltoallv_algorithm,
             "Collective: the AlltoallvAlgorithm `ferry tune kernels` recorded in the tuning\n"
             "cache file `cache` for this rank count and the size class of `block_bytes` (the\n"
             "bytes one rank sends one rank); `fallback` if the cache is None or empty, lacks\n"
             "such an entry or names an unknown algorithm. Rank 0 reads the file; its\n"
             "problems are logged as warnings, never raised.");
  bind_tuned(m, "tuned_allreduce_algorithm", "vector_bytes", kAllreduceNames,
             &tuned_allreduce_algorithm,
             "Collective: the AllreduceAlgorithm `ferry tune kernels` recorded in the tuning\n"
             "cache file `cache` for this rank count and the size class of `vector_bytes` (the\n"
             "bytes of the vector); `fallback` otherwise, as tuned_alltoallv_algorithm.");
}

}  // namespace ferry::python
