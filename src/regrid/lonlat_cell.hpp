// LonLatCell: a grid cell bounded by meridians and parallels, and the exact area of overlaps.
#pragma once

#include <string>

namespace ferry::regrid::detail {

/// A longitude-latitude rectangle on the sphere, in degrees: longitudes west ..
/// west + width (0 <= west < 360, 0 < width < 180; west + width may pass 360) and
/// latitudes south .. north (south < north).
struct LonLatCell {
  double west;
  double width;
  double south;
  double north;
};

/// Not collective. Reads the rectangle bounded by `n` corners (degrees, finite,
/// latitudes within -90..90) into `cell`. Returns "" if they bound one, or else why
/// not, for an error message. Coordinates closer than 1e-9 degrees count as equal.
std::string rectangle_of(const double* lon, const double* lat, int n, LonLatCell& cell);

/// The area of a cell on the unit sphere: width (radians) x (sin(north) - sin(south)).
double cell_area(const LonLatCell& cell);

/// The area on the unit sphere of the overlap of two cells (0 if they only touch),
/// exact up to rounding: the overlap is itself a longitude-latitude rectangle.
double overlap_area(const LonLatCell& a, const LonLatCell& b);

/// Not collective. The overlap of two cells, a rectangle: false if they only touch or
/// are apart.
bool overlap_rectangle(const LonLatCell& a, const LonLatCell& b, LonLatCell& overlap);

}  // namespace ferry::regrid::detail
