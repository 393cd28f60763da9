#include "config/namcouple/namcouple_remapping.hpp"

#include <algorithm>

#include "config/scalar.hpp"
#include "config/suggest.hpp"
#include "util/format.hpp"

namespace ferry::config {

namespace {

using ferry::detail::cat;
using ferry::detail::join;

const std::vector<std::string> kScriprMethods{"DISTWGT", "GAUSWGT", "BILINEAR", "BICUBIC",
                                              "CONSERV"};
const std::vector<std::string> kGridTypes{"LR", "D", "U"};
// OASIS3-MCT 5's normalisations; ferry has the first four.
const std::vector<std::string> kNormalisations{"FRACAREA", "DESTAREA", "FRACNNEI", "DESTNNEI",
                                               "FRACARTR", "DESTARTR", "FRACNNTR", "DESTNNTR"};
const std::vector<std::string> kOrders{"FIRST", "SECOND"};
const std::vector<std::string> kLocations{"src", "dst"};
const std::vector<std::string> kStrategies{"bfb", "sum", "opt"};
const std::vector<std::pair<std::string, Conserve>> kConserveMethods{
    {"GLOBAL", Conserve::Global},
    {"GLBPOS", Conserve::GlobalPositive},
    {"BASBAL", Conserve::BasinBalance},
    {"BASPOS", Conserve::BasinPositive}};
// OASIS's bfb gathers the terms to one rank and adds them in order (ferry's gather);
// opt adds local sums (lsum8).
const std::vector<std::pair<std::string, SumMethod>> kConserveOptions{
    {"bfb", SumMethod::Gather},   {"opt", SumMethod::Lsum8},     {"gather", SumMethod::Gather},
    {"lsum8", SumMethod::Lsum8},  {"lsum16", SumMethod::Lsum16}, {"ddpdd", SumMethod::Ddpdd},
    {"reprosum", SumMethod::Reprosum}};

template <class T>
std::vector<std::string> names_of(const std::vector<std::pair<std::string, T>>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.push_back(entry.first);
  return names;
}

bool is_one_of(const std::string& word, const std::vector<std::string>& choices) {
  return std::find(choices.begin(), choices.end(), word) != choices.end();
}

// "" if `word` is one of `choices`, else what `what` takes.
std::string check_choice(const std::string& what, const std::string& word,
                         const std::vector<std::string>& choices) {
  if (is_one_of(word, choices)) return "";
  return cat(what, " takes one of ", join(choices, ", "), "; got \"", word, "\"",
             detail::did_you_mean(word, choices));
}

template <class T>
T value_of(const std::vector<std::pair<std::string, T>>& table, const std::string& name) {
  return std::find_if(table.begin(), table.end(), [&](const auto& e) { return e.first == name; })
      ->second;
}

}  // namespace

std::string NamcoupleRemapping::read(const std::string& transformation, int line,
                                     const std::vector<std::string>& words) {
  if (transformation == "SCRIPR") return read_scripr(line, words);
  if (transformation == "MAPPING") return read_mapping(line, words);
  return read_conserv(line, words);
}

std::string NamcoupleRemapping::read_scripr(int line, const std::vector<std::string>& words) {
  if (words.size() < 5)
    return cat("SCRIPR takes METHOD GRID_TYPE FIELD_TYPE RESTRICTION BINS, then NEIGHBOURS for "
               "DISTWGT, NEIGHBOURS VARIANCE for GAUSWGT or NORMALISATION ORDER for CONSERV, as "
               "in \"BILINEAR LR SCALAR LATLON 1\"; got \"", join(words, " "), "\"");
  Scripr s;
  s.line = line;
  s.text = join(words, " ");
  // DISTWGTNF, GAUSWGTNF, BILINEARNF, BICUBICNF: without the nearest-neighbour fill.
  const std::size_t cut = words[0].size() >= 2 ? words[0].size() - 2 : 0;
  const std::string base = words[0].substr(0, cut);
  s.fill_nearest = !(words[0].compare(cut, std::string::npos, "NF") == 0 && base != "CONSERV" &&
                     is_one_of(base, kScriprMethods));
  s.method = s.fill_nearest ? words[0] : base;
  if (!is_one_of(s.method, kScriprMethods))
    return cat("unknown SCRIPR method \"", words[0], "\"",
               detail::did_you_mean(words[0], kScriprMethods), "; OASIS3-MCT has ",
               join(kScriprMethods, ", "),
               " and the variants without nearest-neighbour fill (DISTWGTNF, ...)");
  s.grid_type = words[1];
  if (auto why = check_choice("the SCRIPR grid type", s.grid_type, kGridTypes); !why.empty())
    return why;

  const auto word = [&](std::size_t i) { return i < words.size() ? words[i] : std::string(); };
  if (s.method == "DISTWGT" || s.method == "GAUSWGT") {
    const auto neighbours = detail::parse_integer(word(5));
    if (!neighbours || *neighbours <= 0 || *neighbours > 1000)
      return cat("SCRIPR ", s.method, " needs the number of neighbours (1 to 1000) after the "
                 "bins, as in \"", s.method, " LR SCALAR LATLON 1 4",
                 s.method == "GAUSWGT" ? " 0.1" : "", "\"; got \"", s.text, "\"");
    s.neighbours = static_cast<int>(*neighbours);
  }
  if (s.method == "GAUSWGT") {
    const auto variance = detail::parse_number(word(6));
    if (!variance || !(*variance > 0))
      return cat("SCRIPR GAUSWGT needs a variance > 0 after the number of neighbours, as in "
                 "\"GAUSWGT LR SCALAR LATLON 1 4 0.1\"; got \"", s.text, "\"");
    s.variance = *variance;
  }
  if (s.method == "CONSERV") {
    if (auto why = check_choice("the SCRIPR CONSERV normalisation (the sixth word)", word(5),
                                kNormalisations);
        !why.empty())
      return why;
    if (auto why = check_choice("the SCRIPR CONSERV order (the seventh word)", word(6), kOrders);
        !why.empty())
      return why;
    s.normalisation = word(5);
    s.order = word(6);
  }
  scripr_ = s;
  return "";
}

std::string NamcoupleRemapping::read_mapping(int line, const std::vector<std::string>& words) {
  if (words.empty() || words.size() > 3)
    return cat("MAPPING takes a weight file, then optionally src or dst and bfb, sum or opt, as "
               "in \"rmp_atm_to_oce.nc src bfb\"; got \"", join(words, " "), "\"");
  Mapping m;
  m.line = line;
  m.file = words[0];
  if (words.size() > 1) {
    if (auto why = check_choice("the MAPPING location", words[1], kLocations); !why.empty())
      return why;
    m.location = words[1];
  }
  if (words.size() > 2) {
    if (auto why = check_choice("the MAPPING strategy", words[2], kStrategies); !why.empty())
      return why;
    m.strategy = words[2];
  }
  mapping_ = m;
  return "";
}

std::string NamcoupleRemapping::read_conserv(int line, const std::vector<std::string>& words) {
  if (words.empty() || words.size() > 2)
    return cat("CONSERV takes a method and optionally how to sum, as in \"GLOBAL bfb\"; got \"",
               join(words, " "), "\"");
  if (auto why = check_choice("CONSERV", words[0], names_of(kConserveMethods)); !why.empty())
    return why;
  Conserv c;
  c.line = line;
  c.method = words[0];
  if (words.size() > 1) {
    if (auto why = check_choice("the CONSERV sum", words[1], names_of(kConserveOptions));
        !why.empty())
      return why;
    c.option = words[1];
  }
  conserv_ = c;
  return "";
}

RegridConfig NamcoupleRemapping::regrid(const NamcoupleGridSizes& sizes,
                                        NamcoupleNotes& notes) const {
  RegridConfig r;
  if (scripr_) set_method(r, notes);
  set_mapping(r, sizes, notes);
  if (!conserv_) return r;
  if (!r.enabled()) {
    notes.not_converted.push_back(
        cat("line ", conserv_->line, ": CONSERV: ", conserv_->method, " ", conserv_->option,
            " (ferry corrects regridded exchanges only, and none of this entry's remapping was "
            "converted)"));
    return r;
  }
  r.conservation = value_of(kConserveMethods, conserv_->method);
  r.sum = value_of(kConserveOptions, conserv_->option);
  return r;
}

void NamcoupleRemapping::set_method(RegridConfig& r, NamcoupleNotes& notes) const {
  const Scripr& s = *scripr_;
  const std::string at = cat("line ", s.line, ": SCRIPR: ", s.text);
  const std::string use_a_file = "; give a weight file made by another tool as `weights`";
  if (s.method == "DISTWGT" || s.method == "GAUSWGT") {
    r.source = s.method == "DISTWGT" ? WeightSource::Nearest : WeightSource::Gaussian;
    r.neighbours = s.neighbours;
    // GAUSWGT's variance is in units of each target point's neighbour spacing (UG4).
    if (s.method == "GAUSWGT") {
      r.variance = s.variance;
      r.gaussian_scale = GaussianScale::NeighbourSpacing;
    }
    // Both count masked source points among the nearest, then drop them; their target
    // points whose nearest are all masked take the nearest valid one (SCRIP's
    // remap_dist_gaus_wgt), and the NF variants leave those without links.
    r.masked_neighbours =
        s.fill_nearest ? MaskedNeighbours::Dropped : MaskedNeighbours::DroppedNoFill;
  } else if (s.method == "BILINEAR" || s.method == "BICUBIC") {
    const bool bicubic = s.method == "BICUBIC";
    if (s.grid_type != "LR") {
      notes.not_converted.push_back(cat(at, " (ferry's ", bicubic ? "bicubic" : "bilinear",
                                        " method takes logically rectangular source grids, LR",
                                        use_a_file, ")"));
      return;
    }
    r.source = bicubic ? WeightSource::Bicubic : WeightSource::Bilinear;
    r.periodic = source_periodic_.value_or(true);
    // BILINEAR and BICUBIC give target points outside the source grid, or in a cell
    // with a masked corner, SCRIP's distance weights of the 4 nearest source points
    // (UG4: "a N nearest neighbour algorithm using the remaining non masked source
    // points"); BILINEARNF and BICUBICNF leave them.
    r.unmapped = s.fill_nearest ? Unmapped::FourNearest : Unmapped::Fill;
  } else {  // CONSERV, FIRST or SECOND
    if (!is_one_of(s.normalisation, {"FRACAREA", "DESTAREA", "FRACNNEI", "DESTNNEI"})) {
      notes.not_converted.push_back(cat(at, " (ferry normalises conservative weights by "
                                            "FRACAREA, DESTAREA, FRACNNEI or DESTNNEI",
                                        use_a_file, ")"));
      return;
    }
    r.source = WeightSource::Conservative;
    r.order = s.order == "SECOND" ? 2 : 1;
    r.periodic = source_periodic_.value_or(true);  // second order's centred differences
    r.normalisation = s.normalisation.rfind("DEST", 0) == 0 ? ConservativeNormalisation::DestArea
                                                            : ConservativeNormalisation::FracArea;
    // FRACNNEI and DESTNNEI: a target cell over no valid source cell takes its nearest.
    r.unmapped = s.normalisation.find("NNEI") != std::string::npos ? Unmapped::Nearest
                                                                  : Unmapped::Fill;
  }
}

void NamcoupleRemapping::set_mapping(RegridConfig& r, const NamcoupleGridSizes& sizes,
                                     NamcoupleNotes& notes) const {
  if (!mapping_) {
    // SCRIPR alone maps on the source ranks, bit for bit, in OASIS.
    if (r.enabled()) r.map_on = MapOn::Src;
    return;
  }
  const Mapping& m = *mapping_;
  const std::string at = cat("line ", m.line, ": MAPPING ", m.file);
  if (r.enabled()) {
    notes.differences.push_back(cat(at, ": OASIS keeps the weights of the SCRIPR above in this "
                                        "file; ferry computes them when the coupler starts (to "
                                        "use the file, replace `method` by `weights: ",
                                    m.file, "`)"));
  } else {
    r.source = WeightSource::File;
    r.weights = m.file;
    if (scripr_)
      notes.differences.push_back(cat(at, ": the exchange reads its weights from this file, "
                                          "which OASIS writes from the SCRIPR of line ",
                                      scripr_->line, "; make the file before the run"));
  }
  r.map_on = m.location == "dst" ? MapOn::Dst : MapOn::Src;
  if (m.strategy == "sum") r.mode = RemapMode::Sum;
  if (m.strategy != "opt") return;
  // OASIS's opt: partial sums when the source grid is the larger one.
  if (sizes.source > 0 && sizes.target > 0) {
    const bool sum = sizes.source > sizes.target;
    r.mode = sum ? RemapMode::Sum : RemapMode::Bfb;
    notes.differences.push_back(cat(at, " opt: written as ", sum ? "sum" : "bfb",
                                    ", OASIS's choice for a source grid of ", sizes.source,
                                    " points and a target grid of ", sizes.target));
  } else {
    notes.differences.push_back(cat(at, " opt: written as bfb; OASIS takes sum when the source "
                                        "grid has more points than the target, and the entry "
                                        "gives no grid sizes"));
  }
}

}  // namespace ferry::config
