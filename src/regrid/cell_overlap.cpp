#include "regrid/cell_overlap.hpp"

namespace ferry::regrid::detail {

CellOverlap::Clipped CellOverlap::clip(const CellShapes& src, std::size_t i,
                                       const CellShapes& dst, std::size_t j) {
  // Boxes apart (they hold their cells with a margin, and the candidates were found by
  // them): most candidates are told apart here, by the box the band test has just
  // read. A polygon's box may be up to 360 degrees wide: overlap_rectangle's three
  // shifts still find any overlap of such arcs.
  LonLatCell common{};
  if (!overlap_rectangle(src.box[i], dst.box[j], common)) return {true, false, nullptr, 0, {nullptr, 0}};
  // Caps apart: the angle between their centres exceeds the sum of their radii (most
  // neighbours whose boxes meet, without clipping).
  const Cap& a = src.cap[i];
  const Cap& b = dst.cap[j];
  if (a.cos_radius > 0 && b.cos_radius > 0 &&
      dot(a.centre, b.centre) < a.cos_radius * b.cos_radius - a.sin_radius * b.sin_radius)
    return {true, false, nullptr, 0, {nullptr, 0}};
  // The subject: the rectangle if either cell is one, else the source; the clip: the other.
  const bool source_is_subject = !dst.lonlat;
  const CellShapes& subject = source_is_subject ? src : dst;
  const CellShapes& by = source_is_subject ? dst : src;
  const std::size_t s = source_is_subject ? i : j;
  const std::size_t c = source_is_subject ? j : i;
  bool cut = false;
  const ClippedPolygon overlap =
      clipper_.clip(&subject.corners[subject.first[s]], subject.first[s + 1] - subject.first[s],
                    &by.normals[by.first[c]], by.first[c + 1] - by.first[c], cut);
  return {false, !cut, &subject, s, overlap};
}

double CellOverlap::area(const CellShapes& src, std::size_t i, const CellShapes& dst,
                         std::size_t j) {
  if (src.lonlat && dst.lonlat) return overlap_area(src.box[i], dst.box[j]);
  const Clipped overlap = clip(src, i, dst, j);
  if (overlap.apart) return 0;
  if (overlap.whole) return overlap.subject->area[overlap.s];
  return polygon_area(overlap.polygon.corners, overlap.polygon.n);
}

double CellOverlap::area_and_moments(const CellShapes& src, std::size_t i, const CellShapes& dst,
                                     std::size_t j, double lon0, double lat0,
                                     LonLatMoments& moments) {
  moments = {};
  if (src.lonlat && dst.lonlat) {
    LonLatCell box{};
    if (!overlap_rectangle(src.box[i], dst.box[j], box)) return 0;
    moments = rectangle_lonlat_moments(box, lon0, lat0);
    return overlap_area(src.box[i], dst.box[j]);
  }
  const Clipped overlap = clip(src, i, dst, j);
  if (overlap.apart) return 0;
  const CellShapes& subject = *overlap.subject;
  const std::size_t s = overlap.s;
  if (overlap.whole) {
    moments = polygon_lonlat_moments(&subject.corners[subject.first[s]],
                                     subject.first[s + 1] - subject.first[s], lon0, lat0);
    return subject.area[s];
  }
  moments = polygon_lonlat_moments(overlap.polygon.corners, overlap.polygon.n, lon0, lat0);
  return polygon_area(overlap.polygon.corners, overlap.polygon.n);
}

}  // namespace ferry::regrid::detail
