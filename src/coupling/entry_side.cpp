#include "coupling/entry_side.hpp"

#include <algorithm>
#include <map>

#include "util/check.hpp"
#include "util/format.hpp"

namespace ferry::coupling {

EntrySide resolve_side(const std::function<std::string()>& at, const char* entry,
                       const config::FieldRef& ref, FieldDirection direction,
                       const std::vector<CatalogueEntry>& catalogue,
                       const std::vector<std::string>& components) {
  const char* side = direction == FieldDirection::Out ? "source" : "target";
  FERRY_CHECK(std::binary_search(components.begin(), components.end(), ref.component), Errc::Arg,
              at(), ": ", side, " component \"", ref.component,
              "\" is not run by any rank; components of this run: ",
              ferry::detail::list_first(components, components.size()));
  EntrySide out;
  std::map<int, std::size_t> declared_per_rank;
  for (const std::string& name : ref.fields) {
    const CatalogueEntry* first = nullptr;
    for (const CatalogueEntry& c : catalogue) {
      if (c.component != ref.component || c.field != name) continue;
      FERRY_CHECK(c.direction == direction, Errc::Arg, at(), ": component \"", ref.component,
                  "\" declares field \"", name, "\" as ", c.direction == FieldDirection::Out ? "Out" : "In",
                  " (rank ", c.rank, ") but the ", entry, " uses it as its ", side,
                  ". Declare it with direction ", direction == FieldDirection::Out ? "Out" : "In");
      if (first == nullptr) first = &c;
      FERRY_CHECK(c.grid == first->grid && c.partition == first->partition && c.type == first->type &&
                      c.bundle == first->bundle,
                  Errc::Arg, at(), ": field \"", name, "\" of component \"", ref.component,
                  "\" is declared differently on ranks ", first->rank, " and ", c.rank,
                  " (grid, partition, type or bundle). Declare it the same way on every rank");
      ++declared_per_rank[c.rank];
      out.ranks.insert(c.rank);
    }
    FERRY_CHECK(first != nullptr, Errc::Arg, at(), ": component \"", ref.component,
                "\" does not declare the ", side, " field \"", name,
                "\" on any rank. Declare it with def_field, or correct the name in the configuration");
    if (!out.fields.empty())
      FERRY_CHECK(first->grid == out.fields.front()->grid && first->partition == out.fields.front()->partition,
                  Errc::Arg, at(), ": the ", side, " fields \"", out.fields.front()->field,
                  "\" and \"",
                  name, "\" are on different partitions; fields of one exchange travel together and "
                  "must share a partition. Split them into separate exchanges");
    out.fields.push_back(first);
  }
  for (const auto& [rank, count] : declared_per_rank)
    FERRY_CHECK(count == ref.fields.size(), Errc::Arg, at(), ": rank ", rank, " declares ", count,
                " of the ", ref.fields.size(), " ", side,
                " fields; fields of one exchange must be declared together on the same ranks");
  return out;
}

}  // namespace ferry::coupling
