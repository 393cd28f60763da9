#include "coupling/declarations.hpp"

#include <charconv>

#include "util/mpi.hpp"

namespace ferry::coupling {

const PartitionDecl* partition_of_field(const Declarations& declarations,
                                        const std::string& component, const std::string& field) {
  for (const FieldDecl& f : declarations.fields) {
    const PartitionDecl& p = declarations.partitions[static_cast<std::size_t>(f.partition)];
    if (declarations.grids[static_cast<std::size_t>(p.grid)].component == component && f.name == field)
      return &p;
  }
  return nullptr;
}

std::vector<CatalogueEntry> gather_catalogue(const Comm& comm, const Declarations& mine) {
  // One tab-separated line per field; names cannot hold tabs or newlines (checked at
  // def_*). Written and read by appends and from_chars: string streams cost more here
  // than the rest of the gathering.
  std::string local;
  for (const FieldDecl& f : mine.fields) {
    const PartitionDecl& p = mine.partitions[static_cast<std::size_t>(f.partition)];
    const GridDecl& g = mine.grids[static_cast<std::size_t>(p.grid)];
    for (const std::string* name : {&g.component, &f.name, &g.name, &p.name})
      local.append(*name).push_back('\t');
    for (const std::int64_t number :
         {g.size(), g.nx, static_cast<std::int64_t>(f.direction), static_cast<std::int64_t>(f.type),
          static_cast<std::int64_t>(f.bundle)})
      local.append(std::to_string(number)).push_back('\t');
    local.back() = '\n';
  }
  const int length = detail::mpi_count<int>(local.size(), "coupler: declarations of one rank");
  std::vector<int> lengths(static_cast<std::size_t>(comm.size()));
  FERRY_CALL_MPI(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm.get()));
  std::vector<int> displs(lengths.size() + 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    const std::int64_t next = static_cast<std::int64_t>(displs[r]) + lengths[r];
    displs[r + 1] = detail::mpi_count<int>(next, "coupler: declarations of the run");
  }
  std::string all(static_cast<std::size_t>(displs.back()), '\0');
  FERRY_CALL_MPI(MPI_Allgatherv(local.data(), length, MPI_CHAR, all.data(), lengths.data(),
                                displs.data(), MPI_CHAR, comm.get()));

  std::size_t at = 0;  // the start of the next column
  const auto text = [&] {
    const std::size_t end = all.find_first_of("\t\n", at);
    std::string column = all.substr(at, end - at);
    at = end + 1;
    return column;
  };
  const auto number = [&] {
    std::int64_t value = 0;
    const char* end = std::from_chars(all.data() + at, all.data() + all.size(), value).ptr;
    at = static_cast<std::size_t>(end - all.data()) + 1;
    return value;
  };
  std::vector<CatalogueEntry> catalogue;
  for (int r = 0; r < comm.size(); ++r) {
    while (at < static_cast<std::size_t>(displs[static_cast<std::size_t>(r) + 1])) {
      CatalogueEntry e;
      e.component = text();
      e.field = text();
      e.grid = text();
      e.partition = text();
      e.grid_size = number();
      e.grid_nx = number();
      e.direction = static_cast<FieldDirection>(number());
      e.type = static_cast<Datatype>(number());
      e.bundle = static_cast<int>(number());
      e.rank = r;
      catalogue.push_back(std::move(e));
    }
  }
  return catalogue;
}

}  // namespace ferry::coupling
