#include "regrid/weight_file.hpp"

#include <cmath>
#include <tuple>
#include <utility>

#include "regrid/netcdf_dims.hpp"
#include "util/check.hpp"

namespace ferry::regrid::detail {

using ferry::detail::cat;

namespace {

const char* side_name(Side side) { return side == Side::Src ? "source" : "destination"; }

}  // namespace

WeightFile::WeightFile(const std::string& caller, const std::string& path)
    : file_(caller, path, NetcdfFile::Mode::Read) {
  const std::string where = cat(caller, ": \"", path, "\"");
  if (file_.att_shape(NC_GLOBAL, "ferry_format_version")) {
    const std::string version = file_.get_text_att(NC_GLOBAL, "ferry_format_version");
    FERRY_CHECK(version == kWeightsFormatVersion, Errc::Io, where, " has format version \"",
                version, "\"; ferry reads weight files of version \"", kWeightsFormatVersion,
                "\" and files without one (SCRIP, ESMF). Give a remapping weight file, or write "
                "this one again with this version of ferry");
  }

  auto has_any = [&](const WeightFormat& f) {
    return file_.find_var(f.src_index) || file_.find_var(f.dst_index) || file_.find_var(f.weight);
  };
  if (has_any(kScrip)) {
    format_ = &kScrip;
  } else if (has_any(kEsmf)) {
    format_ = &kEsmf;
  } else {
    throw Error(Errc::Io,
                cat(where, " has neither the variables of a SCRIP weight file (src_address, "
                           "dst_address, remap_matrix) nor those of an ESMF one (col, row, S); "
                           "it holds ",
                    ferry::detail::list_first(file_.var_names(), 8),
                    ". Give a remapping weight file, e.g. one made by cdo gencon or "
                    "ESMF_RegridWeightGen"));
  }
  const WeightFormat& f = *format_;

  const auto dims = dimension_lengths(caller, path, {f.src_size, f.dst_size, f.links});
  for (int k = 0; k < 2; ++k)
    FERRY_CHECK(dims[static_cast<std::size_t>(k)], Errc::Io, where, " is a ", f.name,
                " weight file without the dimension \"", k == 0 ? f.src_size : f.dst_size,
                "\" (the ", k == 0 ? "source" : "destination",
                " grid size). The file is damaged or was edited; make it again");
  src_size_ = static_cast<std::int64_t>(*dims[0]);
  dst_size_ = static_cast<std::int64_t>(*dims[1]);

  src_index_ = link_variable(f.src_index);
  dst_index_ = link_variable(f.dst_index);
  weight_ = link_variable(f.weight);
  auto length = [&](int varid) {
    return static_cast<std::int64_t>(file_.dim_length(file_.var_dims(varid).front()));
  };
  links_ = length(src_index_);
  const std::string declared =
      dims[2] ? cat(" and the dimension ", f.links, " is ", *dims[2]) : std::string();
  for (const auto& [varid, name] :
       {std::pair{dst_index_, f.dst_index}, std::pair{weight_, f.weight}})
    FERRY_CHECK(length(varid) == links_, Errc::Io, where, ": ", name, " has ", length(varid),
                " links, ", f.src_index, " has ", links_, declared,
                ". Every link variable holds one value per link; the file is damaged or was "
                "edited, make it again");
  FERRY_CHECK(!dims[2] || static_cast<std::int64_t>(*dims[2]) == links_, Errc::Io, where, ": ",
              f.src_index, " has ", links_, " links", declared,
              ". Every link variable holds one value per link; the file is damaged or was "
              "edited, make it again");

  for (int s = 0; s < 2; ++s) {
    const std::int64_t size = s == 0 ? src_size_ : dst_size_;
    area_[s] = point_variable(f.area[s], size, false);
    frac_[s] = point_variable(f.frac[s], size, false);
    mask_[s] = point_variable(f.mask[s], size, true);
  }
  const auto method = file_.att_shape(NC_GLOBAL, "map_method");
  if (method && method->first == NC_CHAR) method_ = file_.get_text_att(NC_GLOBAL, "map_method");
  // Some writers pad text attributes with NULs.
  if (const auto nul = method_.find('\0'); nul != std::string::npos) method_.resize(nul);
}

int WeightFile::link_variable(const char* name) const {
  const WeightFormat& f = *format_;
  const std::optional<int> varid = file_.find_var(name);
  FERRY_CHECK(varid, Errc::Io, file_.caller(), ": \"", file_.path(), "\" is a ", f.name,
              " weight file without the variable \"", name, "\"; it needs ", f.src_index, ", ",
              f.dst_index, " and ", f.weight,
              ". The file is incomplete or was edited; make it again");
  const bool weight = std::string(name) == f.weight;
  const nc_type type = file_.var_type(*varid);
  FERRY_CHECK(weight ? is_real_type(type) : is_integer_type(type), Errc::Io, file_.caller(),
              ": \"", file_.path(), "\": variable \"", name, "\" has type ",
              file_.type_name(type), ", expected ", weight ? "float or double" : "an integer type",
              ". The file does not follow the ", f.name, " format");
  const std::size_t rank = file_.var_dims(*varid).size();
  // SCRIP stores num_wgts columns of weights (2nd-order methods); the first is the matrix.
  const bool shape_ok = rank == 1 || (weight && format_ == &kScrip && rank == 2);
  FERRY_CHECK(shape_ok, Errc::Io, file_.caller(), ": \"", file_.path(), "\": variable \"", name,
              "\" has ", rank, " dimensions, expected ",
              weight && format_ == &kScrip ? "(num_links) or (num_links, num_wgts)" : "1",
              ". The file does not follow the ", f.name, " format");
  return *varid;
}

std::optional<int> WeightFile::point_variable(const char* name, std::int64_t size,
                                              bool integer) const {
  const std::optional<int> varid = file_.find_var(name);
  if (!varid) return std::nullopt;
  const nc_type type = file_.var_type(*varid);
  FERRY_CHECK(integer ? is_integer_type(type) : is_real_type(type), Errc::Io, file_.caller(),
              ": \"", file_.path(), "\": variable \"", name, "\" has type ", file_.type_name(type),
              ", expected ", integer ? "an integer type" : "float or double",
              ". The file does not follow the ", format_->name, " format");
  const std::vector<int> dims = file_.var_dims(*varid);
  const auto length = dims.size() == 1 ? static_cast<std::int64_t>(file_.dim_length(dims[0])) : -1;
  FERRY_CHECK(length == size, Errc::Io, file_.caller(), ": \"", file_.path(), "\": variable \"",
              name, "\" has ",
              dims.size() == 1 ? cat(length, " values") : cat(dims.size(), " dimensions"),
              ", expected one value per grid point (", size,
              "). The file is damaged or was edited; make it again");
  return varid;
}

std::vector<WeightLink> WeightFile::read_links(std::int64_t first, std::int64_t count,
                                               BadWeightIndex bad, DroppedLinks& dropped) const {
  const WeightFormat& f = *format_;
  const std::vector<std::size_t> start{static_cast<std::size_t>(first)};
  const std::vector<std::size_t> span{static_cast<std::size_t>(count)};
  const std::vector<std::int64_t> src = read_integers(file_, src_index_, start, span);
  const std::vector<std::int64_t> dst = read_integers(file_, dst_index_, start, span);
  const bool columns = file_.var_dims(weight_).size() == 2;
  const std::vector<double> weight =
      read_reals(file_, weight_, columns ? std::vector<std::size_t>{start[0], 0} : start,
                 columns ? std::vector<std::size_t>{span[0], 1} : span);

  std::vector<WeightLink> links;
  links.reserve(static_cast<std::size_t>(count));
  for (std::size_t k = 0; k < static_cast<std::size_t>(count); ++k) {
    const std::int64_t n = first + static_cast<std::int64_t>(k);
    // SCRIP files may pad with links of weight 0 from or to address 0: they add
    // nothing, and OASIS3-MCT skips them too.
    if ((src[k] == 0 || dst[k] == 0) && weight[k] == 0) continue;
    auto link = [&] {
      return cat("link ", n + 1, " of ", links_, " (", f.src_index, " ", src[k], ", ",
                 f.dst_index, " ", dst[k], ", ", f.weight, " ", weight[k], ")");
    };
    auto where = [&] { return cat(file_.caller(), ": \"", file_.path(), "\": ", link()); };
    std::string outside;
    if (src[k] < 1 || src[k] > src_size_)
      outside = cat(f.src_index, " is outside 1..", src_size_, ", the source grid size");
    else if (dst[k] < 1 || dst[k] > dst_size_)
      outside = cat(f.dst_index, " is outside 1..", dst_size_, ", the destination grid size");
    if (!outside.empty()) {
      FERRY_CHECK(bad != BadWeightIndex::Refuse, Errc::ArgRange, where(), ": ", outside,
                  ". Check that the file is complete and was made for these grids");
      if (dropped.count++ == 0) {
        dropped.first = n;
        dropped.first_text = cat(link(), ": ", outside);
      }
      continue;
    }
    FERRY_CHECK(std::isfinite(weight[k]), Errc::Arg, where(), ": the weight is not a finite "
                "number. Make the weights again; check the grids' corners and masks");
    links.push_back({dst[k] - 1, src[k] - 1, weight[k], n});
  }
  return links;
}

GridPointData WeightFile::read_points(Side side, std::int64_t first, std::int64_t count) const {
  const auto s = static_cast<std::size_t>(side);
  const std::vector<std::size_t> start{static_cast<std::size_t>(first)};
  const std::vector<std::size_t> span{static_cast<std::size_t>(count)};
  GridPointData data;
  for (auto [varid, values, name] : {std::tuple{area_[s], &data.area, format_->area[s]},
                                     std::tuple{frac_[s], &data.frac, format_->frac[s]}}) {
    if (!varid) continue;
    *values = read_reals(file_, *varid, start, span);
    for (std::size_t k = 0; k < (*values)->size(); ++k)
      FERRY_CHECK(std::isfinite((**values)[k]), Errc::Arg, file_.caller(), ": \"", file_.path(),
                  "\": ", name, " of ", side_name(side), " point ",
                  first + static_cast<std::int64_t>(k) + 1,
                  " is ", (**values)[k], ", not a finite number. Make the weights again");
  }
  if (mask_[s]) {
    const std::vector<std::int64_t> mask = read_integers(file_, *mask_[s], start, span);
    data.mask.emplace(mask.begin(), mask.end());
  }
  return data;
}

}  // namespace ferry::regrid::detail
