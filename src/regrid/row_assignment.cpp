// The rendezvous behind a Remap. A row's home is the rank holding it in the Weights
// (row blocks); a source point's home is the rank of its block of source points.
// Every array is sized by this rank's rows, links, layout ids or block, never by a
// grid size, so the setup costs O((links + points) / P + P) per rank when balanced.
#include "regrid/row_assignment.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "core/rendezvous.hpp"
#include "regrid/blocks.hpp"
#include "util/agree.hpp"
#include "util/check.hpp"
#include "util/mpi.hpp"

namespace ferry::regrid::detail {

namespace {

using ferry::detail::cat;
using ferry::detail::route;

// route(), except that on one rank the records are home already and stay where they
// are: route keeps each sender's order, so the result is the same without the copies.
template <class Record, class Dest>
std::vector<Record> send_home(const Comm& comm, std::vector<Record>&& records, Dest dest) {
  if (comm.size() == 1) return std::move(records);
  return route(comm, std::move(records), dest);
}

// The index of a record that stands for a row, not a link (a row without links, or
// the row a partial-sum finisher must produce).
constexpr std::int64_t kRowMarker = -1;

struct Request {
  std::int64_t row;
  std::int64_t rank;
};

struct Holding {
  std::int64_t point;
  std::int64_t rank;
  std::int64_t local;
};

struct Query {
  std::int64_t point;
  std::int64_t row;
  std::int64_t link;
  std::int64_t asker;
};

struct Answer {
  std::int64_t link;
  std::int64_t rank;
  std::int64_t local;
  std::int64_t to;
};

// A link (or a row marker) on its way to the rank that applies it.
struct Work {
  std::int64_t row;
  std::int64_t index;
  double weight;
  std::int64_t finisher;
  std::int64_t to;
};

// "Partial sum `id` belongs to `row`", on its way to the row's finisher.
struct PartialRef {
  std::int64_t row;
  std::int64_t id;
  std::int64_t finisher;
};

// Collective: whether every rank's destination layout asks only for rows of its own
// block. Then each row asked for is asked by its home alone, which finishes it.
bool rows_asked_at_home(const Comm& comm, const Weights& w, const Layout& dst) {
  if (comm.size() == 1) return true;
  const std::int64_t first = w.first_row();
  const std::int64_t end = first + w.row_count();
  int home = std::all_of(dst.ids().begin(), dst.ids().end(),
                         [&](std::int64_t id) { return id >= first && id < end; })
                 ? 1
                 : 0;
  int everywhere = 0;
  FERRY_CALL_MPI(MPI_Allreduce(&home, &everywhere, 1, MPI_INT, MPI_MIN, comm.get()));
  return everywhere != 0;
}

// For each row of this rank's block: the lowest rank whose destination layout asks
// for it, or -1. `at_home`: rows_asked_at_home holds, so no rank needs asking.
std::vector<std::int64_t> find_finishers(const Comm& comm, const Weights& w, const Layout& dst,
                                         bool at_home) {
  if (at_home) {
    std::vector<std::int64_t> finisher(static_cast<std::size_t>(w.row_count()), -1);
    for (std::int64_t id : dst.ids())
      finisher[static_cast<std::size_t>(id - w.first_row())] = comm.rank();
    return finisher;
  }
  std::vector<std::int64_t> ids = dst.ids();
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<Request> requests;
  requests.reserve(ids.size());
  for (std::int64_t id : ids) requests.push_back({id, comm.rank()});
  const Blocks rows(w.dst_size(), comm.size());
  const std::vector<Request> arrived =
      route(comm, std::move(requests), [&](const Request& r) { return rows.owner(r.row); });
  std::vector<std::int64_t> finisher(static_cast<std::size_t>(w.row_count()), -1);
  // Requests arrive by ascending rank, so the first one seen is the lowest.
  for (const Request& r : arrived) {
    std::int64_t& f = finisher[static_cast<std::size_t>(r.row - w.first_row())];
    if (f < 0) f = r.rank;
  }
  return finisher;
}

// For each link of this rank's block that a finished row needs: the source rank
// holding its source point and the point's index in that rank's layout.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> locate_sources(
    const Comm& comm, const Weights& w, const Layout& src,
    const std::vector<std::int64_t>& finisher) {
  const int me = comm.rank();
  const Blocks points(w.src_size(), comm.size());

  // Source ranks register their points at the points' homes.
  std::vector<Holding> holdings;
  holdings.reserve(src.ids().size());
  for (std::size_t i = 0; i < src.ids().size(); ++i)
    holdings.push_back({src.ids()[i], me, static_cast<std::int64_t>(i)});
  const std::vector<Holding> registered = send_home(
      comm, std::move(holdings), [&](const Holding& h) { return points.owner(h.point); });
  const std::int64_t first = points.first(me);
  std::vector<std::int64_t> holder(static_cast<std::size_t>(points.count(me)), -1);
  std::vector<std::int64_t> holder_local(holder.size(), 0);
  std::optional<Error> error;
  for (const Holding& h : registered) {
    const auto slot = static_cast<std::size_t>(h.point - first);
    if (holder[slot] < 0) {
      holder[slot] = h.rank;
      holder_local[slot] = h.local;
    } else if (!error) {
      error = Error(Errc::Duplicate,
                    cat("Remap: source point ", h.point, " is held by source ranks ",
                        holder[slot], " and ", h.rank,
                        "; each source point must be held once. Remove it from one of the "
                        "source layouts"),
                    me);
    }
  }
  ferry::detail::agree(comm, error);

  // Row homes ask where the source point of each needed link lives.
  std::vector<Query> queries;
  queries.reserve(w.cols().size());
  for (std::int64_t i = 0; i < w.row_count(); ++i) {
    if (finisher[static_cast<std::size_t>(i)] < 0) continue;
    for (auto k = w.row_start()[static_cast<std::size_t>(i)];
         k < w.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      queries.push_back({w.cols()[static_cast<std::size_t>(k)], w.first_row() + i, k, me});
  }
  const std::vector<Query> asked = send_home(
      comm, std::move(queries), [&](const Query& q) { return points.owner(q.point); });
  std::vector<Answer> answers;
  answers.reserve(asked.size());
  std::vector<std::string> missing;
  std::int64_t missing_count = 0;
  for (const Query& q : asked) {
    const auto slot = static_cast<std::size_t>(q.point - first);
    if (holder[slot] < 0) {
      if (missing.size() < 8) missing.push_back(cat(q.point, " (row ", q.row, ")"));
      ++missing_count;
    }
    answers.push_back({q.link, holder[slot], holder_local[slot], q.asker});
  }
  std::int64_t missing_total = 0;
  FERRY_CALL_MPI(
      MPI_Allreduce(&missing_count, &missing_total, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  if (missing_count > 0)
    error = Error(Errc::Missing,
                  cat("Remap: ", missing_total,
                      " link(s) of the weights read source points that no rank of the source "
                      "layout holds, first: ",
                      ferry::detail::list_first(missing, 8),
                      ". The source layout must hold every source point the weights use"),
                  me);
  ferry::detail::agree(comm, error);

  std::vector<std::int64_t> link_rank(w.cols().size(), -1);
  std::vector<std::int64_t> link_local(w.cols().size(), 0);
  const std::vector<Answer> mine = send_home(
      comm, std::move(answers), [](const Answer& a) { return static_cast<int>(a.to); });
  for (const Answer& a : mine) {
    link_rank[static_cast<std::size_t>(a.link)] = a.rank;
    link_local[static_cast<std::size_t>(a.link)] = a.local;
  }
  return {std::move(link_rank), std::move(link_local)};
}

// The rank holding most of a row's source points (the lowest on a tie).
std::int64_t plurality(const std::vector<std::int64_t>& link_rank, std::int64_t begin,
                       std::int64_t end, std::vector<std::pair<std::int64_t, int>>& counts) {
  counts.clear();
  for (std::int64_t k = begin; k < end; ++k) {
    const std::int64_t rank = link_rank[static_cast<std::size_t>(k)];
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& c) { return c.first == rank; });
    if (it == counts.end())
      counts.push_back({rank, 1});
    else
      ++it->second;
  }
  auto best = counts.front();
  for (const auto& c : counts)
    if (c.second > best.second || (c.second == best.second && c.first < best.first)) best = c;
  return best.first;
}

// Appends a link (or, for a marker, just the row) to CSR rows built in row order.
void append(RowLinks& links, std::int64_t row, std::int64_t index, double weight) {
  if (links.rows.empty() || links.rows.back() != row) {
    links.rows.push_back(row);
    links.row_start.push_back(links.row_start.back());
  }
  if (index == kRowMarker) return;
  links.index.push_back(index);
  links.weight.push_back(weight);
  ++links.row_start.back();
}

// The rows of this rank's block that `finisher` marks, with all their links: what
// the rendezvous would bring back when every such row is applied where it is held.
RowLinks rows_kept(const Weights& w, const std::vector<std::int64_t>& finisher) {
  RowLinks kept;
  std::size_t rows = 0;
  std::size_t links = 0;
  for (std::size_t i = 0; i < finisher.size(); ++i)
    if (finisher[i] >= 0) {
      ++rows;
      links += static_cast<std::size_t>(w.row_start()[i + 1] - w.row_start()[i]);
    }
  kept.rows.reserve(rows);
  kept.row_start.reserve(rows + 1);
  kept.index.reserve(links);
  kept.weight.reserve(links);
  for (std::size_t i = 0; i < finisher.size(); ++i) {
    if (finisher[i] < 0) continue;
    const auto begin = static_cast<std::ptrdiff_t>(w.row_start()[i]);
    const auto end = static_cast<std::ptrdiff_t>(w.row_start()[i + 1]);
    kept.rows.push_back(w.first_row() + static_cast<std::int64_t>(i));
    kept.index.insert(kept.index.end(), w.cols().begin() + begin, w.cols().begin() + end);
    kept.weight.insert(kept.weight.end(), w.values().begin() + begin, w.values().begin() + end);
    kept.row_start.push_back(static_cast<std::int64_t>(kept.index.size()));
  }
  return kept;
}

}  // namespace

RowAssignment assign_rows(const Comm& comm, const Weights& w, const Layout& src,
                          const Layout& dst, MapOn map_on, bool partial_sums) {
  const bool at_home = rows_asked_at_home(comm, w, dst);
  const std::vector<std::int64_t> finisher = find_finishers(comm, w, dst, at_home);
  std::vector<std::int64_t> link_rank;
  std::vector<std::int64_t> link_local;
  if (map_on == MapOn::Src)
    std::tie(link_rank, link_local) = locate_sources(comm, w, src, finisher);
  // Whole rows that stay on the rank holding them need no rendezvous: on one rank,
  // or mapped on the destination side with every row asked for at its home.
  if (!partial_sums && (comm.size() == 1 || (map_on == MapOn::Dst && at_home))) {
    RowAssignment a;
    a.finish = rows_kept(w, finisher);
    return a;
  }

  // Row homes send every needed row's links where they are applied.
  std::vector<Work> work;
  std::vector<std::pair<std::int64_t, int>> counts;
  for (std::int64_t i = 0; i < w.row_count(); ++i) {
    const std::int64_t f = finisher[static_cast<std::size_t>(i)];
    if (f < 0) continue;
    const std::int64_t row = w.first_row() + i;
    const std::int64_t begin = w.row_start()[static_cast<std::size_t>(i)];
    const std::int64_t end = w.row_start()[static_cast<std::size_t>(i) + 1];
    if (partial_sums || begin == end) work.push_back({row, kRowMarker, 0, f, f});
    if (begin == end) continue;
    const std::int64_t owner =
        partial_sums || map_on == MapOn::Dst ? f : plurality(link_rank, begin, end, counts);
    for (std::int64_t k = begin; k < end; ++k) {
      const auto l = static_cast<std::size_t>(k);
      if (partial_sums)
        work.push_back({row, link_local[l], w.values()[l], f, link_rank[l]});
      else
        work.push_back({row, w.cols()[l], w.values()[l], f, owner});
    }
  }
  // Homes hold ascending row blocks and send their rows in order, so what arrives is
  // ordered by row, each row's links in their order.
  const std::vector<Work> mine =
      send_home(comm, std::move(work), [](const Work& r) { return static_cast<int>(r.to); });

  RowAssignment a;
  if (!partial_sums) {
    for (const Work& r : mine) append(a.finish, r.row, r.index, r.weight);
    return a;
  }

  std::vector<std::int64_t> partial_finisher;
  for (const Work& r : mine) {
    if (r.index == kRowMarker) {
      append(a.finish, r.row, kRowMarker, 0);
      continue;
    }
    if (a.partial.rows.empty() || a.partial.rows.back() != r.row)
      partial_finisher.push_back(r.finisher);
    append(a.partial, r.row, r.index, r.weight);
  }
  auto count = static_cast<std::int64_t>(a.partial.rows.size());
  FERRY_CALL_MPI(MPI_Exscan(&count, &a.first_partial, 1, MPI_INT64_T, MPI_SUM, comm.get()));
  if (comm.rank() == 0) a.first_partial = 0;  // MPI_Exscan leaves rank 0's result undefined
  FERRY_CALL_MPI(
      MPI_Allreduce(&count, &a.partial_total, 1, MPI_INT64_T, MPI_SUM, comm.get()));

  // Each partial sum is announced to its row's finisher, which adds them by ascending id.
  std::vector<PartialRef> refs;
  refs.reserve(a.partial.rows.size());
  for (std::size_t i = 0; i < a.partial.rows.size(); ++i)
    refs.push_back({a.partial.rows[i], a.first_partial + static_cast<std::int64_t>(i),
                    partial_finisher[i]});
  std::vector<PartialRef> announced = send_home(
      comm, std::move(refs), [](const PartialRef& r) { return static_cast<int>(r.finisher); });
  std::sort(announced.begin(), announced.end(), [](const PartialRef& x, const PartialRef& y) {
    return x.row != y.row ? x.row < y.row : x.id < y.id;
  });
  RowLinks& finish = a.finish;
  std::fill(finish.row_start.begin(), finish.row_start.end(), 0);
  std::size_t j = 0;
  for (std::size_t i = 0; i < finish.rows.size(); ++i) {
    for (; j < announced.size() && announced[j].row == finish.rows[i]; ++j) {
      finish.index.push_back(announced[j].id);
      finish.weight.push_back(1.0);
    }
    finish.row_start[i + 1] = static_cast<std::int64_t>(finish.index.size());
  }
  FERRY_ASSERT(j == announced.size(), "partial sums for rows this rank does not finish: ",
               announced.size() - j);
  return a;
}

}  // namespace ferry::regrid::detail
