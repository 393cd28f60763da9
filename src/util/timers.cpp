#include "util/timers.hpp"

#include <fstream>
#include <iomanip>
#include <sstream>
#include <vector>

#include "util/check.hpp"
#include "util/json_text.hpp"
#include "util/mpi.hpp"

namespace ferry::detail {

const char* timer_category_name(TimerCategory category) noexcept {
  switch (category) {
    case TimerCategory::Setup: return "setup";
    case TimerCategory::Put: return "put";
    case TimerCategory::Get: return "get";
    case TimerCategory::Wait: return "wait";
    case TimerCategory::Transfer: return "transfer";
    case TimerCategory::Pack: return "pack";
    case TimerCategory::Transform: return "transform";
    case TimerCategory::Io: return "io";
    case TimerCategory::Imbalance: return "imbalance";
    case TimerCategory::Count: break;
  }
  return "unknown";
}

void Timers::add(const std::string& exchange, TimerCategory category, double seconds) {
  Entry& e = entries_[exchange];
  e.seconds[static_cast<std::size_t>(category)] += seconds;
  ++e.calls[static_cast<std::size_t>(category)];
}

void Timers::write_json(const Comm& component, const std::string& component_name,
                        double run_seconds, double enddef_seconds,
                        const std::string& path) const {
  // Every rank of a component has the same exchanges only if it takes part in all of
  // them; agree on the union of names, each sent as "<length>:<name>" (a quoted YAML
  // name may hold any character).
  std::string names;
  for (const auto& [name, entry] : entries_) names += std::to_string(name.size()) + ':' + name;
  int length = static_cast<int>(names.size());
  std::vector<int> lengths(static_cast<std::size_t>(component.size()));
  FERRY_CALL_MPI(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, component.get()));
  std::vector<int> displs(lengths.size() + 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) displs[r + 1] = displs[r] + lengths[r];
  std::string all(static_cast<std::size_t>(displs.back()), '\0');
  FERRY_CALL_MPI(MPI_Allgatherv(names.data(), length, MPI_CHAR, all.data(), lengths.data(),
                                displs.data(), MPI_CHAR, component.get()));
  std::map<std::string, Entry> everything;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t colon = all.find(':', at);
    const std::size_t length = std::stoul(all.substr(at, colon - at));
    everything[all.substr(colon + 1, length)];
    at = colon + 1 + length;
  }
  for (const auto& [name, entry] : entries_) everything[name] = entry;

  // One reduction of every number: min, sum and max over the component's ranks.
  const auto categories = static_cast<std::size_t>(TimerCategory::Count);
  std::vector<double> mine{run_seconds, enddef_seconds};
  for (const auto& [name, entry] : everything)
    for (std::size_t c = 0; c < categories; ++c) {
      mine.push_back(entry.seconds[c]);
      mine.push_back(static_cast<double>(entry.calls[c]));
    }
  std::vector<double> low(mine.size()), sum(mine.size()), high(mine.size());
  const int n = static_cast<int>(mine.size());
  FERRY_CALL_MPI(MPI_Reduce(mine.data(), low.data(), n, MPI_DOUBLE, MPI_MIN, 0, component.get()));
  FERRY_CALL_MPI(MPI_Reduce(mine.data(), sum.data(), n, MPI_DOUBLE, MPI_SUM, 0, component.get()));
  FERRY_CALL_MPI(MPI_Reduce(mine.data(), high.data(), n, MPI_DOUBLE, MPI_MAX, 0, component.get()));
  if (component.rank() != 0) return;

  const double ranks = component.size();
  std::ostringstream out;
  out << std::setprecision(9);
  auto stats = [&](std::size_t i) {
    std::ostringstream s;
    s << std::setprecision(9) << "{\"min\": " << low[i] << ", \"mean\": " << sum[i] / ranks
      << ", \"max\": " << high[i] << "}";
    return s.str();
  };
  out << "{\n  \"ferry_timers\": 1,\n  \"component\": " << json_string(component_name)
      << ",\n  \"ranks\": "
      << component.size() << ",\n  \"run_seconds\": " << stats(0)
      << ",\n  \"enddef_seconds\": " << stats(1) << ",\n  \"timers\": [";
  std::size_t i = 2;
  bool first = true;
  for (const auto& [name, entry] : everything) {
    for (std::size_t c = 0; c < categories; ++c, i += 2) {
      if (high[i + 1] == 0) continue;  // never called on any rank
      out << (first ? "\n" : ",\n") << "    {\"exchange\": " << json_string(name)
          << ", \"category\": \""
          << timer_category_name(static_cast<TimerCategory>(c)) << "\", \"calls_max\": "
          << static_cast<long long>(high[i + 1]) << ", \"seconds\": " << stats(i) << "}";
      first = false;
    }
  }
  out << "\n  ]\n}\n";
  std::ofstream file(path);
  file << out.str();
  FERRY_CHECK(file.good(), Errc::Io, "Timers: cannot write \"", path,
              "\". Check that the output directory exists and is writable");
}

ScopedTimer::ScopedTimer(Timers& timers, const std::string& exchange, TimerCategory category)
    : timers_(timers), exchange_(exchange), category_(category), start_(MPI_Wtime()) {}

ScopedTimer::~ScopedTimer() { timers_.add(exchange_, category_, MPI_Wtime() - start_); }

}  // namespace ferry::detail
