#include "scenario.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>

#include "util/check.hpp"

namespace ferry::bench {

namespace {

// Toy default: a handful of messages per rank, as in the paper's mid-range runs.
constexpr int kDefaultMsgsPerProc = 4;

Scenario base_scenario(const std::string& name) {
  Scenario s;
  s.name = name;
  if (name == "gamil") {
    // GAMIL2-CLM3: 14 fields from CLM3 (round-robin) to GAMIL2 (regular 2-D blocks).
    s.nx = 128, s.ny = 60, s.fields = 14;
    s.src = Decomposition::RoundRobin, s.dst = Decomposition::Blocks2d;
  } else if (name == "toy") {
    // Toy models: 10 fields, the message count per source rank is the knob.
    s.nx = 192, s.ny = 96, s.fields = 10;
    s.src = Decomposition::Block1d, s.dst = Decomposition::GroupedRoundRobin;
  } else if (name == "large") {
    // A high-resolution transfer whose payload dwarfs message latency.
    s.nx = 1024, s.ny = 512, s.fields = 14;
    s.src = Decomposition::Blocks2d, s.dst = Decomposition::RoundRobin;
  } else if (name == "cesm") {
    // CESM CLM4 -> CPL7: 32 fields on the land grid. CLM4 deals its grid cells to
    // processes in turn; the coupler holds regular 2-D blocks.
    s.nx = 144, s.ny = 96, s.fields = 32;
    s.src = Decomposition::RoundRobin, s.dst = Decomposition::Blocks2d;
  } else if (name == "interp") {
    // CESM's rearrangement before interpolating atmosphere fields to the ocean grid
    // (320 x 384): from the atmosphere's 2-D blocks to the atmosphere points each
    // rank's block of the ocean grid reads. The paper gives no field count.
    s.nx = 144, s.ny = 96, s.fields = 10;
    s.target_nx = 320, s.target_ny = 384;
    s.src = Decomposition::Blocks2d, s.dst = Decomposition::BilinearStencils;
  } else if (name == kCustomScenario) {
    // OASIS's usual pair: a BOX partition to a round-robin POINTS partition.
    s.nx = 1024, s.ny = 512, s.fields = 14;
    s.src = Decomposition::Blocks2d, s.dst = Decomposition::RoundRobin;
  } else {
    throw Error(Errc::Arg, detail::cat("unknown scenario \"", name, "\"; expected one of ",
                                       detail::list_first(scenario_names(), 8)));
  }
  return s;
}

// Every source rank of a group of sources deals its points, in order, over the
// group's M destination ranks, so each source sends to exactly M of them.
// Destination ranks are grouped M at a time; ranks left over hold nothing.
Layout grouped_round_robin(const Scenario& s, const Roles& roles) {
  const int m = s.msgs_per_proc;
  const int groups = roles.dst_ranks / m;
  const int group = roles.dst_part / m;
  const auto member = static_cast<std::size_t>(roles.dst_part % m);
  std::vector<std::int64_t> ids;
  for (int src = 0; src < roles.src_ranks && group < groups; ++src) {
    if (static_cast<std::int64_t>(src) * groups / roles.src_ranks != group) continue;
    const Layout source = Layout::block(s.points(), roles.src_ranks, src);
    for (std::size_t i = member; i < source.ids().size(); i += static_cast<std::size_t>(m))
      ids.push_back(source.ids()[i]);
  }
  return Layout::points(s.points(), std::move(ids));
}

// Floor of a / b for b > 0 and any sign of a.
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The source indices [first, last] bilinear interpolation reads for target cells
// t0..t1 of a dimension cut into `targets` cells, from one cut into `sources`:
// target centre (t + 1/2) / targets lies between source centres k and k + 1 with
// k = floor(((2t + 1) * sources - targets) / (2 * targets)).
std::pair<std::int64_t, std::int64_t> bracketing(std::int64_t t0, std::int64_t t1,
                                                 std::int64_t targets, std::int64_t sources) {
  return {floor_div((2 * t0 + 1) * sources - targets, 2 * targets),
          floor_div((2 * t1 + 1) * sources - targets, 2 * targets) + 1};
}

// The rank's 2-D block of the target grid, turned into the source points its
// interpolation weights touch. Longitude wraps around (a global grid); latitude
// stops at the poles.
Layout bilinear_stencils(const Scenario& s, int parts, int part) {
  const auto [px, py] = square_process_grid(parts);
  const Layout block = Layout::box(s.target_nx, s.target_ny, px, py, part);
  std::vector<std::int64_t> ids;
  if (block.ids().empty()) return Layout::points(s.points(), std::move(ids));
  const std::int64_t first = block.ids().front();
  const std::int64_t last = block.ids().back();
  auto [i0, i1] = bracketing(first % s.target_nx, last % s.target_nx, s.target_nx, s.nx);
  const auto [j0, j1] = bracketing(first / s.target_nx, last / s.target_nx, s.target_ny, s.ny);
  if (i1 - i0 + 1 >= s.nx) i0 = 0, i1 = s.nx - 1;  // a band all around: each column once
  for (std::int64_t j = std::max<std::int64_t>(j0, 0); j <= std::min(j1, s.ny - 1); ++j)
    for (std::int64_t i = i0; i <= i1; ++i) ids.push_back(j * s.nx + (i + s.nx) % s.nx);
  return Layout::points(s.points(), std::move(ids));
}

// The box's process grid: the one asked for, or as square as `parts` allows.
std::pair<int, int> box_grid(const DecompositionChoice& choice, int parts) {
  if (choice.kind == Decomposition::Blocks2d && choice.px > 0) return {choice.px, choice.py};
  return square_process_grid(parts);
}

// Line `part` of `path`: the ids that part holds.
Layout points_from_file(const Scenario& s, const std::string& path, int part) {
  std::ifstream in(path);
  FERRY_CHECK(in.good(), Errc::Io, "--src/--dst points:", path, ": cannot open the file");
  std::string line;
  for (int p = 0; p <= part; ++p)
    FERRY_CHECK(std::getline(in, line), Errc::Arg, "points:", path, " has ", p,
                " lines, but part ", part, " needs line ", part + 1,
                ". Give one line of ids per rank of the component");
  std::istringstream words(line);
  std::vector<std::int64_t> ids;
  for (std::int64_t id = 0; words >> id;) ids.push_back(id);
  FERRY_CHECK(words.eof(), Errc::Arg, "points:", path, " line ", part + 1,
              " holds something that is not an integer id");
  return Layout::points(s.points(), std::move(ids));
}

Layout decompose(Decomposition d, const DecompositionChoice& choice, const Scenario& s,
                 const Roles& roles, int parts, int part) {
  if (part < 0) return Layout::none(s.points());
  switch (d) {
    case Decomposition::RoundRobin: return Layout::round_robin(s.points(), parts, part);
    case Decomposition::Block1d: return Layout::block(s.points(), parts, part);
    case Decomposition::Blocks2d: {
      const auto [px, py] = box_grid(choice, parts);
      return Layout::box(s.nx, s.ny, px, py, part);
    }
    case Decomposition::Orange: return Layout::orange(s.nx, s.ny, parts, part);
    case Decomposition::PointsFile: return points_from_file(s, choice.file, part);
    case Decomposition::GroupedRoundRobin: return grouped_round_robin(s, roles);
    case Decomposition::BilinearStencils: return bilinear_stencils(s, parts, part);
  }
  throw Error(Errc::Internal, "decompose: unknown decomposition. This is a bug in ferry");
}

std::string describe_decomposition(Decomposition d, const DecompositionChoice& choice,
                                   const Scenario& s, int parts) {
  const auto [px, py] = box_grid(choice, parts);
  switch (d) {
    case Decomposition::Orange: return "latitude bands";
    case Decomposition::PointsFile: return "points of " + choice.file;
    case Decomposition::RoundRobin: return "round-robin";
    case Decomposition::Block1d: return "1-D blocks";
    case Decomposition::Blocks2d: return detail::cat(px, " x ", py, " blocks");
    case Decomposition::GroupedRoundRobin:
      return detail::cat("round-robin in groups of ", s.msgs_per_proc);
    case Decomposition::BilinearStencils:
      return detail::cat("bilinear stencils of ", px, " x ", py, " blocks of a ", s.target_nx,
                         " x ", s.target_ny, " grid");
  }
  return "?";
}

// Scales both sides of the grid (and of the target grid) by sqrt(points / current),
// keeping the aspect ratios.
void rescale(Scenario& s, std::int64_t points) {
  const double scale = std::sqrt(static_cast<double>(points) / static_cast<double>(s.points()));
  auto scaled = [scale](std::int64_t n) {
    return std::max<std::int64_t>(1, std::llround(static_cast<double>(n) * scale));
  };
  s.nx = scaled(s.nx), s.ny = scaled(s.ny);
  if (s.target_nx > 0) s.target_nx = scaled(s.target_nx), s.target_ny = scaled(s.target_ny);
}

}  // namespace

std::vector<std::string> scenario_names() {
  return {"gamil", "toy", "large", "cesm", "interp", kCustomScenario};
}

DecompositionChoice parse_decomposition(const std::string& text) {
  DecompositionChoice choice;
  const std::string head = text.substr(0, text.find(':'));
  const std::string rest = text.find(':') == std::string::npos ? "" : text.substr(text.find(':') + 1);
  bool ok = rest.empty();
  if (head == "round_robin") {
    choice.kind = Decomposition::RoundRobin;
  } else if (head == "block") {
    choice.kind = Decomposition::Block1d;
  } else if (head == "orange") {
    choice.kind = Decomposition::Orange;
  } else if (head == "points") {
    choice.kind = Decomposition::PointsFile;
    choice.file = rest;
    ok = !rest.empty();
  } else if (head == "box") {
    choice.kind = Decomposition::Blocks2d;
    char x = 0;
    std::istringstream in(rest);
    ok = rest.empty() || ((in >> choice.px >> x >> choice.py) && x == 'x' && in.eof() &&
                          choice.px >= 1 && choice.py >= 1);
  } else {
    ok = false;
  }
  FERRY_CHECK(ok, Errc::Arg, "decomposition \"", text,
              "\" is not one of box, box:PXxPY (say box:4x2), orange, round_robin, block, "
              "points:FILE (one line of ids per rank)");
  return choice;
}

std::pair<int, int> square_process_grid(int parts) {
  int py = static_cast<int>(std::sqrt(static_cast<double>(parts)));
  while (py > 1 && parts % py != 0) --py;
  return {parts / py, py};
}

Scenario make_scenario(const ScenarioRequest& request, const Roles& roles) {
  Scenario s = base_scenario(request.name);
  FERRY_CHECK(request.fields >= 0, Errc::Arg, "scenario ", s.name,
              ": the number of fields must be >= 1; got ", request.fields);
  FERRY_CHECK(request.points >= 0, Errc::Arg, "scenario ", s.name,
              ": the number of points must be >= 1; got ", request.points);
  FERRY_CHECK(request.points_per_proc >= 0, Errc::Arg, "scenario ", s.name,
              ": the number of points per process must be >= 1; got ", request.points_per_proc);
  FERRY_CHECK(request.points == 0 || request.points_per_proc == 0, Errc::Arg, "scenario ", s.name,
              ": --points and --points-per-proc both size the grid. Give one of them");
  FERRY_CHECK((request.nx > 0) == (request.ny > 0) && request.nx >= 0, Errc::Arg,
              "scenario ", s.name, ": --grid needs NXxNY with both >= 1");
  if (request.fields > 0) s.fields = request.fields;
  if (request.nx > 0) s.nx = request.nx, s.ny = request.ny;
  if (!request.src_layout.empty()) {
    s.src_choice = parse_decomposition(request.src_layout);
    s.src = s.src_choice.kind;
  }
  if (!request.dst_layout.empty()) {
    s.dst_choice = parse_decomposition(request.dst_layout);
    s.dst = s.dst_choice.kind;
  }
  for (const auto& [choice, ranks, side] :
       {std::tuple{s.src_choice, roles.src_ranks, "--src"},
        std::tuple{s.dst_choice, roles.dst_ranks, "--dst"}})
    FERRY_CHECK(choice.kind != Decomposition::Blocks2d || choice.px == 0 ||
                    choice.px * choice.py == ranks,
                Errc::Arg, side, " box:", choice.px, "x", choice.py, " has ", choice.px * choice.py,
                " blocks, but the component has ", ranks, " ranks. Give PX x PY = ", ranks);
  if (request.points > 0) rescale(s, request.points);
  if (request.points_per_proc > 0) rescale(s, request.points_per_proc * roles.src_ranks);

  if (s.dst != Decomposition::GroupedRoundRobin) {
    FERRY_CHECK(request.msgs_per_proc == 0, Errc::Arg, "scenario ", s.name,
                ": --msgs-per-proc applies to the toy scenario only. Drop it or use --scenario toy");
    return s;
  }
  s.msgs_per_proc = request.msgs_per_proc > 0 ? request.msgs_per_proc
                                              : std::min(kDefaultMsgsPerProc, roles.dst_ranks);
  FERRY_CHECK(s.msgs_per_proc <= roles.dst_ranks, Errc::Arg, "scenario toy: --msgs-per-proc ",
              s.msgs_per_proc, " needs at least that many destination ranks; this run has ",
              roles.dst_ranks, " (groups ", groups_name(roles.groups),
              "). Use a value in 1..", roles.dst_ranks, " or run on more ranks");
  FERRY_CHECK(s.points() / roles.src_ranks >= s.msgs_per_proc, Errc::Arg,
              "scenario toy: each of the ", roles.src_ranks, " source ranks holds about ",
              s.points() / roles.src_ranks, " points, too few to send to ", s.msgs_per_proc,
              " destination ranks. Raise --points or lower --msgs-per-proc");
  return s;
}

std::string describe_side(const Scenario& scenario, const Roles& roles, bool source) {
  return source ? describe_decomposition(scenario.src, scenario.src_choice, scenario,
                                         roles.src_ranks)
                : describe_decomposition(scenario.dst, scenario.dst_choice, scenario,
                                         roles.dst_ranks);
}

std::string describe(const Scenario& scenario, const Roles& roles) {
  return describe_side(scenario, roles, true) + " -> " + describe_side(scenario, roles, false);
}

LayoutPair make_layouts(const Scenario& scenario, const Roles& roles) {
  return {decompose(scenario.src, scenario.src_choice, scenario, roles, roles.src_ranks,
                    roles.src_part),
          decompose(scenario.dst, scenario.dst_choice, scenario, roles, roles.dst_ranks,
                    roles.dst_part)};
}

}  // namespace ferry::bench
