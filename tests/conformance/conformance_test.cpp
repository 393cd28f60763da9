// The engine conformance suite: one body, run for the engine named by --engine,
// at several rank counts, on three communicator variants. Every received value is
// compared exactly with a function of its global id.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "ferry/exchange.hpp"
#include "field_values.hpp"
#include "test_support.hpp"

using ferry::Datatype;
using ferry::FieldSpec;
using ferry::Layout;
using ferry_test::expected_value;
using ferry_test::FieldBuffer;

namespace {

constexpr std::int64_t kSentinel = -7;

// The same test runs on WORLD, on a duplicate, and on a split with ranks reversed:
// a hidden use of MPI_COMM_WORLD in the library shows up as a wrong result.
enum class CommVariant { World, Dup, Reversed };

class Conformance : public testing::TestWithParam<CommVariant> {
 protected:
  void SetUp() override {
    switch (GetParam()) {
      case CommVariant::World: comm_ = MPI_COMM_WORLD; break;
      case CommVariant::Dup: MPI_Comm_dup(MPI_COMM_WORLD, &comm_); break;
      case CommVariant::Reversed: {
        int rank = 0, size = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &comm_);
        break;
      }
    }
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  void TearDown() override {
    if (comm_ != MPI_COMM_WORLD) MPI_Comm_free(&comm_);
  }

  // Mixed types and components, as the paper's multi-field exchanges.
  static std::vector<FieldSpec> mixed_fields() {
    return {{Datatype::Float64, 1}, {Datatype::Float32, 3}, {Datatype::Int32, 2},
            {Datatype::Int64, 1}};
  }

  // Builds the exchange and checks: all fields, a mask, begin/end with work in
  // between, and repeated rounds with changing values.
  void check(const Layout& src, const Layout& dst,
             const std::vector<FieldSpec>& fields = mixed_fields()) {
    ferry::Exchange exchange(comm_, src, dst, fields, ferry_test::engine(),
                             ferry_test::engine_options());
    ASSERT_EQ(exchange.engine_name(), ferry_test::engine());

    std::vector<FieldBuffer> in, out;
    for (const auto& spec : fields) {
      in.emplace_back(spec, src.local_size());
      out.emplace_back(spec, dst.local_size());
    }
    std::vector<const void*> src_ptrs;
    std::vector<void*> dst_ptrs;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      src_ptrs.push_back(in[f].data());
      dst_ptrs.push_back(out[f].data());
    }

    auto fill = [&](int round) {
      for (std::size_t f = 0; f < fields.size(); ++f) {
        for (std::int64_t i = 0; i < src.local_size(); ++i)
          for (int c = 0; c < fields[f].components; ++c)
            in[f].set(i, c, expected_value(src.ids()[static_cast<std::size_t>(i)],
                                           static_cast<int>(f), c, round));
        for (std::int64_t i = 0; i < dst.local_size(); ++i)
          for (int c = 0; c < fields[f].components; ++c) out[f].set(i, c, kSentinel);
      }
    };
    auto verify = [&](int round, const std::vector<std::uint8_t>& moved, const char* what) {
      for (std::size_t f = 0; f < fields.size(); ++f)
        for (std::int64_t i = 0; i < dst.local_size(); ++i)
          for (int c = 0; c < fields[f].components; ++c) {
            const std::int64_t gid = dst.ids()[static_cast<std::size_t>(i)];
            const std::int64_t want =
                moved[f] ? expected_value(gid, static_cast<int>(f), c, round) : kSentinel;
            const std::int64_t got = out[f].get(i, c);
            if (got != want) {
              ADD_FAILURE() << what << ", round " << round << ": field " << f << " point " << i
                            << " (global id " << gid << ") component " << c << ": got " << got
                            << ", expected " << want;
              return;
            }
          }
    };

    const std::vector<std::uint8_t> all(fields.size(), 1);
    for (int round = 0; round < 3; ++round) {
      fill(round);
      exchange.execute(src_ptrs.data(), dst_ptrs.data());
      verify(round, all, "execute");
    }

    std::vector<std::uint8_t> mask(fields.size(), 0);
    for (std::size_t f = 0; f < fields.size(); f += 2) mask[f] = 1;
    fill(1);
    exchange.execute(src_ptrs.data(), dst_ptrs.data(), mask.data());
    verify(1, mask, "execute with a mask");
    fill(2);
    exchange.execute(src_ptrs.data(), dst_ptrs.data());
    verify(2, all, "execute after a masked one");

    fill(3);
    exchange.begin(src_ptrs.data(), dst_ptrs.data());
    volatile double work = 0;  // computation overlapping the transfer
    for (int k = 0; k < 100000; ++k) work = work + k * 0.5;
    exchange.end();
    verify(3, all, "begin/end with work in between");

    // Engines that offer their own destination memory (rma, where a source is on the
    // same node: it writes straight into it): the same exchanges into it, asked for
    // before each one. Its values (of the fields moved) are copied to `out` for the
    // checks. Ranks that get nullptr pass their own buffers.
    std::vector<std::size_t> bytes(fields.size());
    for (std::size_t f = 0; f < fields.size(); ++f)
      bytes[f] = static_cast<std::size_t>(dst.local_size() * fields[f].components) *
                 ferry::datatype_size(fields[f].type);
    auto offered = [&] {
      std::vector<void*> own(fields.size());
      for (std::size_t f = 0; f < fields.size(); ++f) {
        void* memory = exchange.destination_field(f);
        own[f] = memory ? memory : out[f].data();
      }
      return own;
    };
    auto read_back = [&](const std::vector<void*>& own,
                         const std::vector<std::uint8_t>& moved) {
      for (std::size_t f = 0; f < fields.size(); ++f)
        if (moved[f] && own[f] != out[f].data()) std::memcpy(out[f].data(), own[f], bytes[f]);
    };
    for (int round = 0; round < 3; ++round) {
      fill(round);
      const std::vector<void*> own = offered();
      exchange.execute(src_ptrs.data(), own.data());
      read_back(own, all);
      verify(round, all, "execute into destination_field memory");
    }
    fill(1);
    std::vector<void*> own = offered();
    exchange.execute(src_ptrs.data(), own.data(), mask.data());
    read_back(own, mask);
    verify(1, mask, "execute into destination_field memory with a mask");
    fill(2);
    exchange.execute(src_ptrs.data(), dst_ptrs.data());
    verify(2, all, "execute into the caller's memory after destination_field memory");
    // The values of one exchange stay in its memory while the next is in flight.
    fill(3);
    own = offered();
    exchange.execute(src_ptrs.data(), own.data());
    fill(4);
    const std::vector<void*> next = offered();
    exchange.begin(src_ptrs.data(), next.data());
    // Checked where the engine offered memory on this rank for both exchanges (read
    // back into `out`, which must then not be the next exchange's destination: with
    // adaptive, the next exchange's candidate may offer none).
    if (own[0] != out[0].data() && next[0] != out[0].data()) {
      read_back(own, all);
      verify(3, all, "destination_field memory while the next exchange is in flight");
    }
    exchange.end();
    read_back(next, all);
    verify(4, all, "begin/end into destination_field memory");
  }

  // Rank r of a group of `group_size` ranks starting at `first`, or -1.
  int in_group(int first, int group_size) const {
    return rank_ >= first && rank_ < first + group_size ? rank_ - first : -1;
  }

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

constexpr std::int64_t kN = 1237;  // not a multiple of any rank count used

TEST_P(Conformance, Identity) {
  check(Layout::block(kN, size_, rank_), Layout::block(kN, size_, rank_));
}

TEST_P(Conformance, RandomPermutation) {
  check(Layout::random(kN, size_, rank_, 11), Layout::random(kN, size_, rank_, 12));
}

TEST_P(Conformance, BlockToRoundRobin) {
  check(Layout::block(kN, size_, rank_), Layout::round_robin(kN, size_, rank_));
}

TEST_P(Conformance, BoxToOrange) {
  int px = 1;
  for (int d = 1; d * d <= size_; ++d)
    if (size_ % d == 0) px = d;
  check(Layout::box(37, 29, px, size_ / px, rank_), Layout::orange(37, 29, size_, rank_));
}

TEST_P(Conformance, AllToOne) {
  std::vector<std::int64_t> everything;
  if (rank_ == 0) {
    everything.resize(kN);
    std::iota(everything.begin(), everything.end(), 0);
  }
  check(Layout::block(kN, size_, rank_), Layout::points(kN, everything));
}

TEST_P(Conformance, OneToAll) {
  const int root = size_ - 1;
  std::vector<std::int64_t> everything;
  if (rank_ == root) {
    everything.resize(kN);
    std::iota(everything.rbegin(), everything.rend(), 0);  // stored in reverse order
  }
  check(Layout::points(kN, everything), Layout::round_robin(kN, size_, rank_));
}

TEST_P(Conformance, EmptyRanks) {
  // More parts than ids: some ranks of both groups hold nothing.
  const std::int64_t n = std::max(1, size_ / 2);
  check(Layout::block(n, size_, rank_), Layout::round_robin(n, size_, (rank_ + 1) % size_));
}

TEST_P(Conformance, DisjointGroups) {
  if (size_ < 2) GTEST_SKIP() << "needs 2 ranks";
  const int sources = std::max(1, size_ * 3 / 5);  // 3 -> 2 on 5 ranks
  const int dests = size_ - sources;
  const int s = in_group(0, sources);
  const int d = in_group(sources, dests);
  check(s >= 0 ? Layout::random(kN, sources, s, 5) : Layout::none(kN),
        d >= 0 ? Layout::block(kN, dests, d) : Layout::none(kN));
}

TEST_P(Conformance, OverlappingGroups) {
  const int sources = (2 * size_ + 2) / 3;
  const int first_dest = size_ / 3;
  const int s = in_group(0, sources);
  const int d = in_group(first_dest, size_ - first_dest);
  const std::int64_t nx = 41, ny = 31;
  check(s >= 0 ? Layout::round_robin(nx * ny, sources, s) : Layout::none(nx * ny),
        d >= 0 ? Layout::box(nx, ny, 1, size_ - first_dest, d) : Layout::none(nx * ny));
}

TEST_P(Conformance, RandomLayoutsFromSeveralSeeds) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    check(Layout::random(kN, size_, rank_, seed), Layout::random(kN, size_, rank_, seed + 100));
  }
}

TEST_P(Conformance, DestinationsShareIds) {
  // Every rank asks for the same stretch of ids, one of them twice.
  std::vector<std::int64_t> wanted{5, 3, 900, 3, kN - 1};
  check(Layout::round_robin(kN, size_, rank_), Layout::points(kN, wanted));
}

TEST_P(Conformance, ManyComponentsAndOneField) {
  check(Layout::block(kN, size_, rank_), Layout::round_robin(kN, size_, rank_),
        {{Datatype::Float64, 5}});
}

TEST_P(Conformance, ExchangesNotClosed) {
  // Exchanges destroyed without close() keep what only all ranks can free (rma's
  // windows) until MPI_Finalize, while the communicators they were built on are
  // freed and MPI hands their resources to the next ones. Every later exchange
  // must still reach its own memory: gathered to one rank and scattered from it
  // by turns, so that in each round the receive memory of some ranks is empty.
  for (int round = 0; round < 6; ++round) {
    SCOPED_TRACE(round);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(comm_, &comm);
    const int root = round % size_;
    std::vector<std::int64_t> everything;
    if (rank_ == root) {
      everything.resize(kN);
      std::iota(everything.begin(), everything.end(), 0);
    }
    const Layout spread = Layout::round_robin(kN, size_, (rank_ + round) % size_);
    const Layout gathered = Layout::points(kN, everything);
    const Layout& src = round % 2 == 0 ? spread : gathered;
    const Layout& dst = round % 2 == 0 ? gathered : spread;
    const FieldSpec spec{Datatype::Int64, 1};
    FieldBuffer in(spec, src.local_size());
    FieldBuffer out(spec, dst.local_size());
    for (std::int64_t i = 0; i < src.local_size(); ++i)
      in.set(i, 0, expected_value(src.ids()[static_cast<std::size_t>(i)], 0, 0, round));
    {
      ferry::Exchange exchange(comm, src, dst, {spec}, ferry_test::engine(),
                               ferry_test::engine_options());
      MPI_Comm_free(&comm);
      const void* src_ptr = in.data();
      void* dst_ptr = out.data();
      exchange.execute(&src_ptr, &dst_ptr);
    }
    for (std::int64_t i = 0; i < dst.local_size(); ++i) {
      const std::int64_t gid = dst.ids()[static_cast<std::size_t>(i)];
      ASSERT_EQ(out.get(i, 0), expected_value(gid, 0, 0, round)) << "point " << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Comms, Conformance,
                         testing::Values(CommVariant::World, CommVariant::Dup,
                                         CommVariant::Reversed),
                         [](const testing::TestParamInfo<CommVariant>& info) {
                           switch (info.param) {
                             case CommVariant::World: return std::string("World");
                             case CommVariant::Dup: return std::string("Dup");
                             case CommVariant::Reversed: return std::string("Reversed");
                           }
                           return std::string("Unknown");
                         });

}  // namespace
