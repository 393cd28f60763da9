// bench_field_output: the time per record of an output file in ferry's format
// (an exchange's `output: true`), written by FieldFile::append, which builds the
// exchanges to the file's slabs at every record, and by a FieldOutput, which keeps
// them from one record to the next. The two write their own files in turn, record
// after record, so both see the same load.
//
//   mpiexec -n P bench_field_output [--points N] [--fields F] [--records R]
//
// Each field is float64 on N points dealt to the ranks at random (one layout shared
// by the F fields, as an exchange's fields share their partition). Prints, for each
// way, the median, minimum and maximum over R records of the slowest rank's wall
// time and of the busiest rank's CPU time, and the ratio of the medians.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "coupling/field_file.hpp"
#include "ferry/layout.hpp"
#include "statistics.hpp"

namespace {

struct Options {
  std::int64_t points = 100'000;
  std::int64_t fields = 4;
  std::int64_t records = 25;
};

// "--name value" pairs, each value > 0.
bool parse(int argc, char** argv, Options& o) {
  const std::pair<const char*, std::int64_t*> known[] = {
      {"--points", &o.points}, {"--fields", &o.fields}, {"--records", &o.records}};
  if (argc % 2 != 1) return false;
  for (int i = 1; i < argc; i += 2) {
    const auto found = std::find_if(std::begin(known), std::end(known), [&](const auto& k) {
      return std::strcmp(k.first, argv[i]) == 0;
    });
    const long long value = std::atoll(argv[i + 1]);
    if (found == std::end(known) || value <= 0) return false;
    *found->second = value;
  }
  return true;
}

struct Times {
  std::vector<double> wall, cpu;
};

// Runs `write` once on every rank; adds the slowest rank's wall and busiest rank's CPU time.
template <class Write>
void time_record(Times& times, Write&& write) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double wall0 = MPI_Wtime();
  const double cpu0 = ferry::bench::process_cpu_seconds();
  write();
  double spent[2] = {MPI_Wtime() - wall0, ferry::bench::process_cpu_seconds() - cpu0};
  MPI_Allreduce(MPI_IN_PLACE, spent, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  times.wall.push_back(spent[0]);
  times.cpu.push_back(spent[1]);
}

void print(const char* way, const Times& t) {
  const ferry::bench::Summary wall = ferry::bench::summarize(t.wall);
  const ferry::bench::Summary cpu = ferry::bench::summarize(t.cpu);
  std::printf("%-28s wall median %8.3f ms (min %8.3f, max %8.3f)   cpu median %8.3f ms (min %8.3f, max %8.3f)\n",
              way, 1e3 * wall.median, 1e3 * wall.min, 1e3 * wall.max, 1e3 * cpu.median,
              1e3 * cpu.min, 1e3 * cpu.max);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  if (!parse(argc, argv, o)) {
    if (rank == 0)
      std::fprintf(stderr, "usage: bench_field_output [--points N] [--fields F] [--records R]\n");
    MPI_Finalize();
    return 2;
  }
  using ferry::coupling::FieldRecord;
  const ferry::Layout layout = ferry::Layout::random(o.points, size, rank, 11);
  std::vector<FieldRecord> records(static_cast<std::size_t>(o.fields));
  std::vector<std::vector<double>> values(records.size());
  std::vector<const ferry::Layout*> layouts(records.size(), &layout);
  std::vector<const void*> data;
  for (std::size_t f = 0; f < records.size(); ++f) {
    records[f].name = "field" + std::to_string(f);
    records[f].grid = "grid";
    records[f].global_size = o.points;
    values[f].assign(static_cast<std::size_t>(layout.local_size()), static_cast<double>(f));
    data.push_back(values[f].data());
  }
  const std::string each_path = "bench_field_output_each.nc";
  const std::string kept_path = "bench_field_output_kept.nc";
  if (rank == 0) {
    std::remove(each_path.c_str());
    std::remove(kept_path.c_str());
  }
  const ferry::Comm world = ferry::Comm::view(MPI_COMM_WORLD);
  Times each, kept;
  {
    ferry::coupling::FieldOutput output(world, kept_path);
    for (std::int64_t k = 0; k < o.records; ++k) {
      for (FieldRecord& r : records) r.time = 600.0 * static_cast<double>(k);
      time_record(each, [&] { ferry::coupling::FieldFile::append(world, each_path, records, layouts, data); });
      time_record(kept, [&] { output.append(records, layouts, data); });
    }
  }
  if (rank == 0) {
    std::printf("bench_field_output: %d ranks, %lld points, %lld float64 fields, %lld records\n",
                size, static_cast<long long>(o.points), static_cast<long long>(o.fields),
                static_cast<long long>(o.records));
    print("FieldFile::append (rebuilds)", each);
    print("FieldOutput (keeps)", kept);
    std::printf("ratio of medians (append / FieldOutput): wall %.2f, cpu %.2f\n",
                ferry::bench::summarize(each.wall).median / ferry::bench::summarize(kept.wall).median,
                ferry::bench::summarize(each.cpu).median / ferry::bench::summarize(kept.cpu).median);
    std::remove(each_path.c_str());
    std::remove(kept_path.c_str());
  }
  MPI_Finalize();
  return 0;
}
