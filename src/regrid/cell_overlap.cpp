#include "regrid/cell_overlap.hpp"

#include <vector>

#include "regrid/cell_polygon.hpp"

namespace ferry::regrid::detail {

double shape_area(const CellShapes& shapes, std::size_t i) {
  if (shapes.lonlat) return cell_area(shapes.box[i]);
  return great_circle_area(&shapes.corners[shapes.first[i]], shapes.first[i + 1] - shapes.first[i]);
}

double CellOverlap::area(const CellShapes& src, std::size_t i, const CellShapes& dst,
                         std::size_t j) {
  if (src.lonlat && dst.lonlat) return overlap_area(src.box[i], dst.box[j]);
  PolygonCorner rectangle[4];
  const PolygonCorner* subject = rectangle;
  std::size_t n = 0;
  const CellShapes* clip = &dst;
  std::size_t c = j;
  if (src.lonlat || dst.lonlat) {
    // The rectangle is clipped by the polygon.
    n = rectangle_polygon(src.lonlat ? src.box[i] : dst.box[j], rectangle);
    clip = src.lonlat ? &dst : &src;
    c = src.lonlat ? j : i;
  } else {
    subject_.clear();
    for (std::uint32_t k = src.first[i]; k < src.first[i + 1]; ++k)
      subject_.push_back({src.corners[k], EdgeKind::GreatCircle});
    subject = subject_.data();
    n = subject_.size();
  }
  const std::vector<PolygonCorner>& overlap = clipper_.clip(
      subject, n, &clip->normals[clip->first[c]], clip->first[c + 1] - clip->first[c]);
  return polygon_area(overlap.data(), overlap.size());
}

}  // namespace ferry::regrid::detail
