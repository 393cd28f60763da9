// Remapping weights computed in parallel from grid coordinates (no weight file needed).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ferry/layout.hpp"
#include "ferry/weights.hpp"

namespace ferry {

/// This rank's points of one grid, as Coupler::set_coordinates takes them: one
/// longitude and latitude (degrees) per point of `layout`, in layout order, and
/// optionally a mask (1 = valid, 0 = masked; empty = every point valid).
struct GridPoints {
  Layout layout = Layout::none(0);
  std::vector<double> lon;
  std::vector<double> lat;
  std::vector<std::int32_t> mask;
};

/// How the k nearest source points of a destination point share its value.
enum class NeighbourWeighting : int {
  /// Inverse distance (OASIS DISTWGT, CDO gendis): w_i = (1/d_i) / sum_j (1/d_j).
  InverseDistance = 0,
  /// Gaussian (OASIS GAUSWGT): w_i = exp(-d_i^2 / (2 s^2)) / sum_j exp(-d_j^2 / (2 s^2)),
  /// s^2 = gaussian_variance * m^2, m the spacing GaussianScale says.
  Gaussian = 1,
};

/// Which spacing m sets the width of the Gaussian (s^2 = gaussian_variance * m^2).
enum class GaussianScale : int {
  /// One m for the whole grid: the mean chord from a valid source point to its nearest
  /// other valid source point; distances d are chords.
  SourceSpacing = 0,
  /// OASIS's (SCRIP's) GAUSWGT: an m for each destination point, the mean great-circle
  /// arc between the pairs of its neighbours (those that get links); distances d are
  /// arcs. A row of one neighbour, or of neighbours all at one place, shares equally.
  NeighbourSpacing = 1,
};

/// Which source points a destination point's k nearest are taken from.
enum class MaskedNeighbours : int {
  /// The k nearest valid source points; distances are chords.
  Skipped = 0,
  /// OASIS's (SCRIP's) DISTWGT: the k nearest source points, masked or not, by
  /// great-circle arc (ties to the lower id); the masked ones get no link and the rest
  /// w_i = (1 / (d_i + 2^-52)) / sum_j (1 / (d_j + 2^-52)), d the arc in radians (or
  /// with Gaussian weighting, GaussianScale::NeighbourSpacing's weights). A
  /// destination point whose k nearest are all masked takes its nearest valid source
  /// point with weight 1.
  Dropped = 1,
  /// OASIS's DISTWGTNF and GAUSWGTNF: as Dropped, but a destination point whose k
  /// nearest are all masked gets no links (Remap gives it its fill value).
  DroppedNoFill = 2,
};

/// Logically collective: the same on every rank.
struct NearestNeighbourOptions {
  /// Source points per destination point (k).
  int neighbours = 4;
  NeighbourWeighting weighting = NeighbourWeighting::InverseDistance;
  /// Gaussian only: the variance in units of the spacing m squared (> 0).
  double gaussian_variance = 0.1;
  /// Gaussian only: which spacing m is.
  GaussianScale gaussian_scale = GaussianScale::SourceSpacing;
  MaskedNeighbours masked = MaskedNeighbours::Skipped;
};

/// Collective over `comm`. Weights from every valid destination point to its k
/// nearest valid source points on the unit sphere (or, with MaskedNeighbours::Dropped
/// or DroppedNoFill, OASIS's rule above): distances are chords (straight
/// lines through the sphere, as CDO measures them), ties are broken by the lower
/// source global id, and each row's links are ordered nearest first. Masked
/// destination points get no links (Remap gives them its fill value). The result
/// is distributed like Weights::read's and has the same bits for any number of
/// ranks and any layouts. Each rank gives any share of the points of each grid
/// (Layout::none(size) for none); every global id at most once over all ranks.
///
/// The search is distributed: source points are spread over the ranks by latitude
/// bands; each destination point is answered by the band holding its latitude and
/// then by the bands its k-th candidate's spherical cap reaches. No rank holds more
/// than its band of source points. See docs/user/regrid.md.
///
/// Raises on every rank alike: Errc::ArgSize (lon, lat or mask not of the layout's
/// local size), Errc::ArgRange (a global id outside its grid), Errc::Arg (grid sizes
/// that differ between ranks, a coordinate that is not finite or a latitude outside
/// -90..90, neighbours < 1 or more than the valid source points (than the source
/// points with Dropped), gaussian_variance <= 0 or fewer than 2 valid source points
/// with Gaussian weighting, Gaussian weighting of GaussianScale::SourceSpacing with
/// Dropped or DroppedNoFill, an unknown enum value),
/// Errc::Duplicate (a global id given twice).
Weights nearest_neighbour_weights(MPI_Comm comm, const GridPoints& src, const GridPoints& dst,
                                  const NearestNeighbourOptions& options = {});

/// What a valid destination point that no valid source point or cell covers receives.
enum class Unmapped : int {
  /// No links: Remap gives it its fill value (OASIS's NF methods).
  Fill = 0,
  /// One link of weight 1 from the nearest valid source point (by chord; ties to the
  /// lower id): OASIS's FRACNNEI and DESTNNEI for CONSERV.
  Nearest = 1,
  /// Bilinear and bicubic only, OASIS's (SCRIP's) BILINEAR and BICUBIC: the 4 nearest
  /// source points, masked or not, weighted by inverse great-circle distance
  /// 1 / (d + 1e-14), the masked ones dropped and the rest normalised to a sum of 1;
  /// where all 4 are masked, as Nearest.
  FourNearest = 2,
};

/// Logically collective: the source grid of bilinear weights is logically
/// rectangular, nx x (size / nx) points, point (i, j) with global id j * nx + i.
struct BilinearOptions {
  std::int64_t nx = 0;
  /// Column nx - 1 and column 0 are neighbours (a global grid).
  bool periodic = true;
  /// Destination points in no source cell (beyond the outermost source rows, outside a
  /// regional grid) or in a cell with a masked corner.
  Unmapped unmapped = Unmapped::Fill;
};

/// Collective over `comm`. Bilinear weights (SCRIP's algorithm, as CDO genbil): each
/// valid destination point is located in a cell of four neighbouring source points
/// (i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1) by solving the bilinear map in
/// longitude and latitude; its links are those four points, in that order, with
/// weights (1 - a)(1 - b), a (1 - b), a b, (1 - a) b. Destination points in no cell
/// (beyond the outermost source rows) or in a cell with a masked corner get no links,
/// or with Unmapped::Nearest one link from their nearest valid source point, or with
/// Unmapped::FourNearest OASIS's distance weights of their 4 nearest source points.
/// Candidate cells are those around the destination point's 4 nearest source points
/// (found as by nearest_neighbour_weights), tried by ascending cell id (the id of
/// its corner (i, j)): the first that contains the point is used. The same bits for
/// any number of ranks and layouts. Raises like nearest_neighbour_weights, and
/// Errc::Arg if nx < 2 or the source size is not a multiple of nx of 2 rows or more.
Weights bilinear_weights(MPI_Comm comm, const GridPoints& src, const GridPoints& dst,
                         const BilinearOptions& options);

/// SCRIP's bicubic remapping (CDO genbic's four weights per link) as four matrices with
/// the same links: dst = value f + i_gradient df/di + j_gradient df/dj + ij_gradient
/// d2f/didj, the derivatives taken along the source grid's index directions, per index
/// step (CDO computes them as centred differences of the neighbouring points, half the
/// difference of (i + 1, j) and (i - 1, j), one-sided next to masked points and the
/// outermost rows; OASIS passes them to oasis_put as fld2..fld4).
struct BicubicGradientWeights {
  Weights value;
  Weights i_gradient;
  Weights j_gradient;
  Weights ij_gradient;
};

/// Collective over `comm`. Bicubic weights (SCRIP's algorithm, as CDO genbic) for
/// gradients the caller gives: each valid destination point is located in a cell of
/// four source points as by bilinear_weights (the same cells, positions (a, b) and
/// link order), and the links of those four corners get the products of the cubic
/// Hermite bases in a and b: the value basis times the value basis (`value`), the
/// slope basis in a times the value basis in b (`i_gradient`), and so on. Points in no
/// cell or in a cell with a masked corner get no links, or the value weights of
/// Unmapped::Nearest or FourNearest (gradient weights 0).
/// The same bits for any number of ranks and layouts. Raises like bilinear_weights.
BicubicGradientWeights bicubic_gradient_weights(MPI_Comm comm, const GridPoints& src,
                                                const GridPoints& dst,
                                                const BilinearOptions& options);

/// Collective over `comm`. Bicubic weights with the gradients made from the field
/// itself, as CDO's remap computes them for genbic weights: d/di = (f(i + 1, j) -
/// f(i - 1, j)) / 2 and d/dj likewise, a masked neighbour (or one beyond the outermost
/// rows, or beyond the ends of a grid that is not periodic) replaced by the point itself
/// and the half dropped, d2/didj from the four diagonal neighbours with CDO's
/// replacements for masked ones; folded into one matrix, so each destination point links
/// the 4 corners of its cell and their neighbours (up to 16 points). Each weight is
/// summed in one fixed order: the same bits for any number of ranks and layouts. Raises
/// like bilinear_weights.
Weights bicubic_weights(MPI_Comm comm, const GridPoints& src, const GridPoints& dst,
                        const BilinearOptions& options);

/// How the edges of a grid's cells run from corner to corner.
enum class CellEdges : int {
  /// LonLat if every valid cell of the grid is a longitude-latitude rectangle (regular
  /// and Gaussian grids, reduced ones too), GreatCircle otherwise.
  Auto = 0,
  /// Along great circles, as on curvilinear (ORCA), unstructured and icosahedral grids.
  GreatCircle = 1,
  /// Along meridians and parallels: every valid cell must be a longitude-latitude
  /// rectangle (two latitudes and, off the poles, two longitudes less than 180 degrees
  /// apart, each latitude off the poles with both).
  LonLat = 2,
};

/// This rank's cells of one grid, as Coupler::set_corners takes them: up to `corners`
/// corners per cell of `layout`, in layout order (cell i has corner_lon[i * corners +
/// c], c = 0 .. corners - 1, degrees), and optionally a mask (1 = valid, 0 = masked;
/// empty = every cell valid). Corners may repeat (a degenerate or polar cell repeats
/// one) and run either way round; corners closer than 1e-9 degrees count as the same.
/// With great-circle edges a valid cell must be convex with 3 or more distinct
/// corners, given in order around it; masked cells are not looked at beyond their
/// coordinates being finite, so they may be degenerate (as ORCA's land cells are).
struct GridCells {
  Layout layout = Layout::none(0);
  int corners = 4;
  std::vector<double> corner_lon;
  std::vector<double> corner_lat;
  std::vector<std::int32_t> mask;
  /// Empty (every cell has `corners` corners), or the corners of each cell (1 ..
  /// corners) for unstructured grids: cell i uses the first corner_counts[i] of its
  /// `corners` slots.
  std::vector<std::int32_t> corner_counts;
  CellEdges edges = CellEdges::Auto;
  /// The grid's name in error messages ("torc"), or "" for "source"/"destination".
  std::string name;
};

/// What the weights of a destination cell add up to (SCRIP's names).
enum class ConservativeNormalisation : int {
  /// w = overlap / (the cell's overlap with all valid source cells), CDO gencon's
  /// default: a constant stays that constant, also in cells partly over masked
  /// source cells.
  FracArea = 0,
  /// w = overlap / (destination cell area): the weights of a partly covered cell add
  /// up to the fraction covered.
  DestArea = 1,
};

/// How far one rank has got in a weight generation (ConservativeOptions::progress).
struct WeightProgress {
  /// The step: "overlaps" (clipping the cells of this rank's latitude band, by far the
  /// longest step).
  const char* stage = "";
  /// Destination cells of this rank's band done, and in all.
  std::int64_t done = 0;
  std::int64_t total = 0;
  /// Seconds since the step began.
  double seconds = 0;
};

/// Logically collective: the same on every rank (except `progress`).
struct ConservativeOptions {
  ConservativeNormalisation normalisation = ConservativeNormalisation::FracArea;
  /// Valid destination cells that overlap no valid source cell. With Nearest, the
  /// nearest valid source cell is the one whose centre (the mean direction of its
  /// corners) is nearest the destination cell's.
  Unmapped unmapped = Unmapped::Fill;
  /// 1: first order. 2: second order (SCRIP's, as CDO gencon2 and OASIS's CONSERV ...
  /// SECOND): the field is expanded about each source cell's centroid with its
  /// gradients in latitude and longitude, which conservative_weights computes from the
  /// field itself (see there); conservative_gradient_weights leaves them to the caller.
  int order = 1;
  /// Second order with computed gradients: 0, or the source grid is logically
  /// rectangular, nx x (size / nx) cells (nx >= 2), cell (i, j) with global id j * nx + i (as
  /// Grid::nx says for OASIS and SCRIP grids): the gradients are then centred
  /// differences along i and j (SCRIP's and CDO's), not least squares (see
  /// conservative_weights).
  std::int64_t nx = 0;
  /// With nx: column nx - 1 and column 0 are neighbours (a global grid).
  bool periodic = true;
  /// Called on each rank by that rank alone (no communication, so it cannot make
  /// ranks wait for each other) with its progress through the overlaps: at the start
  /// (done 0), then at most every `progress_seconds`, and at the end (done == total).
  /// An exception it throws ends the call on every rank (a ferry::Error as it is,
  /// anything else as Errc::Arg naming the rank). Empty: no calls. Independently,
  /// with $FERRY_LOG_LEVEL=info each rank allowed to log reports its progress at most
  /// every 10 s, and in a last line when its overlaps are done.
  std::function<void(const WeightProgress&)> progress = nullptr;
  double progress_seconds = 1;
};

/// Collective over `comm`. First-order conservative weights: valid destination cell d
/// gets a link from every valid source cell s it overlaps, with weight A(s, d) / N(d),
/// A the area on the unit sphere of the overlap and N as `options.normalisation` says.
/// With options.order 2, second-order weights in one matrix: those of
/// conservative_gradient_weights with the gradients made from the field itself, folded
/// into the value weights: row d then also links the neighbours of the cells it
/// overlaps. On a logically rectangular source (options.nx) each valid cell's gradient
/// comes from centred differences along i and j as SCRIP and CDO make them (a masked
/// neighbour, or one beyond the outermost rows, replaced by the cell itself), turned
/// into eastward and northward gradients by the same differences of the centroids'
/// positions; on other sources by least squares in (longitude, latitude) over its 8
/// nearest valid source cells. Both are exact for a field linear in longitude and
/// latitude at the centroids (away from the date line, across which longitudes are
/// taken the short way). The links are ordered by source
/// id; the same bits for any number of ranks and layouts.
/// Overlaps are clipped exactly on the sphere: great-circle cells by Sutherland and
/// Hodgman's algorithm in 3-D (so cells across the date line or holding a pole need
/// nothing special), longitude-latitude rectangles with their parallels as parallels
/// (two grids of rectangles overlap in rectangles: (overlap in longitude, radians) x
/// (sin(north) - sin(south)), as CDO gencon on regular and Gaussian grids). A corner
/// within 1e-14 (the sine of the angle, 64 nm on the Earth) of the great circle of
/// another cell's edge counts as on it. Links of a row are ordered by source id;
/// masked cells and destination cells over no valid source cell get no links. The
/// weights carry both grids' cell areas (unit sphere; 0 for a masked cell that is not a
/// valid polygon), fractions covered and masks, as CDO's files do. The same bits for
/// any number of ranks and layouts.
///
/// Source and destination cells travel to the latitude bands (one per rank, as for
/// nearest_neighbour_weights) their boxes reach; each overlap is computed once, by the
/// band holding the southern edge of the two boxes' overlap. See docs/user/regrid.md.
///
/// Raises on every rank alike, naming the grid, the first bad cell, its rank and its
/// corners: Errc::ArgSize (corner_lon, corner_lat, corner_counts or mask not of the
/// layout's local size times corners, or times 1), Errc::ArgRange (a global id outside
/// its grid), Errc::Arg (corners < 3, a corner count outside 1 .. corners, grid sizes
/// that differ between ranks, a corner that is not finite or has a latitude outside
/// -90..90, a valid cell with fewer than 3 distinct corners, corners out of order or
/// not convex, or no area, a cell that is not a longitude-latitude rectangle with
/// CellEdges::LonLat, normalisation or edges not one of the enumerators, nx other than
/// 0 that is below 2 or does not divide the source size),
/// Errc::Duplicate (a global id given twice).
Weights conservative_weights(MPI_Comm comm, const GridCells& src, const GridCells& dst,
                             const ConservativeOptions& options = {});

/// Second-order conservative remapping as three matrices with the same links (SCRIP's,
/// OASIS's and CDO gencon2's three weights per link): dst = value src + lat_gradient
/// g_lat + lon_gradient g_lon, with g_lat = d f / d lat and g_lon = d f / d lon /
/// cos(lat) the northward and eastward gradients of the field at the source cells'
/// centroids per radian of arc (as OASIS's test_interpolation computes them).
struct ConservativeGradientWeights {
  /// The first-order weights: A(s, d) / N(d), as conservative_weights with order 1.
  Weights value;
  /// The integral over the overlap of (lat - lat_s), divided by N(d); lat_s is the mean
  /// latitude of source cell s, angles in radians.
  Weights lat_gradient;
  /// The integral over the overlap of (lon - lon_s) cos(lat), divided by N(d); lon_s is
  /// the longitude about which that integral over s vanishes (so the gradients never
  /// change a fully covered source cell's total), within half a turn of s.
  Weights lon_gradient;
};

/// Collective over `comm`. Second-order conservative weights for gradients that the
/// caller gives (OASIS passes them to oasis_put as fld2 and fld3): a field linear in
/// latitude, given at the centroids with its exact gradients, is remapped to its exact
/// mean over each covered destination cell (to rounding and quadrature, about 1e-15
/// relative), one linear in longitude to second order (the error falls with the square
/// of the cell size: the eastward gradient is taken as constant across the cell). The overlaps, their
/// areas and the value weights are those of conservative_weights (the same bits);
/// the integrals of latitude and longitude over them are line integrals around each
/// overlap, in closed form along parallels and meridians and by 8-point Gauss-Legendre
/// quadrature along other great circles. Rows filled by Unmapped::Nearest have gradient
/// weights 0. `options.order` is not looked at. The same bits for any number of ranks
/// and layouts. Raises like conservative_weights.
ConservativeGradientWeights conservative_gradient_weights(MPI_Comm comm, const GridCells& src,
                                                          const GridCells& dst,
                                                          const ConservativeOptions& options = {});

}  // namespace ferry
