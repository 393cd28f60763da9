#include "regrid/cell_overlap.hpp"

namespace ferry::regrid::detail {

double CellOverlap::area(const CellShapes& src, std::size_t i, const CellShapes& dst,
                         std::size_t j) {
  if (src.lonlat && dst.lonlat) return overlap_area(src.box[i], dst.box[j]);
  // Caps apart: the angle between their centres exceeds the sum of their radii.
  const Cap& a = src.cap[i];
  const Cap& b = dst.cap[j];
  if (a.cos_radius > 0 && b.cos_radius > 0 &&
      dot(a.centre, b.centre) < a.cos_radius * b.cos_radius - a.sin_radius * b.sin_radius)
    return 0;
  // The subject: the rectangle if either cell is one, else the source; the clip: the other.
  const bool source_is_subject = !dst.lonlat;
  const CellShapes& subject = source_is_subject ? src : dst;
  const CellShapes& clip = source_is_subject ? dst : src;
  const std::size_t s = source_is_subject ? i : j;
  const std::size_t c = source_is_subject ? j : i;
  bool cut = false;
  const std::vector<PolygonCorner>& overlap =
      clipper_.clip(&subject.corners[subject.first[s]], subject.first[s + 1] - subject.first[s],
                    &clip.normals[clip.first[c]], clip.first[c + 1] - clip.first[c], cut);
  if (!cut) return subject.area[s];
  return polygon_area(overlap.data(), overlap.size());
}

}  // namespace ferry::regrid::detail
