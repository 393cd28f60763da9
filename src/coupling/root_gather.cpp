#include "coupling/root_gather.hpp"

#include <numeric>

namespace ferry::coupling {

Layout whole_on_root(const Comm& comm, std::int64_t size) {
  if (comm.rank() != 0) return Layout::none(size);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(size));
  std::iota(ids.begin(), ids.end(), std::int64_t{0});
  return Layout::points(size, std::move(ids));
}

RootGather::RootGather(const Comm& comm, const Layout& layout)
    : comm_(Comm::view(comm.get())),
      layout_(&layout),
      root_(whole_on_root(comm, layout.global_size())) {}

std::vector<double> RootGather::gather(const FieldSpec& spec, const void* data) {
  std::unique_ptr<Exchange>& exchange = exchanges_[{spec.type, spec.components}];
  if (!exchange) exchange = std::make_unique<Exchange>(comm_.get(), *layout_, root_, std::vector<FieldSpec>{spec}, "p2p");
  const std::size_t values =
      static_cast<std::size_t>(root_.local_size()) * static_cast<std::size_t>(spec.components);
  std::vector<unsigned char> whole(values * datatype_size(spec.type));
  exchange->execute(data, whole.data());
  std::vector<double> out(values);
  for (std::size_t i = 0; i < values; ++i)
    out[i] = spec.type == Datatype::Float32 ? static_cast<double>(reinterpret_cast<const float*>(whole.data())[i])
                                            : reinterpret_cast<const double*>(whole.data())[i];
  return out;
}

}  // namespace ferry::coupling
