#include "coupling/declarations.hpp"

#include <sstream>

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
  // One tab-separated line per field; names cannot hold tabs or newlines (checked at def_*).
  std::ostringstream text;
  for (const FieldDecl& f : mine.fields) {
    const PartitionDecl& p = mine.partitions[static_cast<std::size_t>(f.partition)];
    const GridDecl& g = mine.grids[static_cast<std::size_t>(p.grid)];
    text << g.component << '\t' << f.name << '\t' << g.name << '\t' << p.name << '\t' << g.size()
         << '\t' << g.nx << '\t' << static_cast<int>(f.direction) << '\t' << static_cast<int>(f.type) << '\t'
         << f.bundle << '\n';
  }
  const std::string local = text.str();
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

  std::vector<CatalogueEntry> catalogue;
  for (int r = 0; r < comm.size(); ++r) {
    std::istringstream lines(all.substr(static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]),
                                        static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
    for (std::string line; std::getline(lines, line);) {
      std::istringstream cols(line);
      CatalogueEntry e;
      int direction = 0, type = 0;
      std::getline(cols, e.component, '\t');
      std::getline(cols, e.field, '\t');
      std::getline(cols, e.grid, '\t');
      std::getline(cols, e.partition, '\t');
      cols >> e.grid_size >> e.grid_nx >> direction >> type >> e.bundle;
      e.direction = static_cast<FieldDirection>(direction);
      e.type = static_cast<Datatype>(type);
      e.rank = r;
      catalogue.push_back(std::move(e));
    }
  }
  return catalogue;
}

}  // namespace ferry::coupling
