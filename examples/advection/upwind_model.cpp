#include "upwind_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace {

using Vec3 = std::array<double, 3>;

double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// The rotation axis, tilted so the flow crosses pentagons and partition boundaries.
const Vec3 kAxis = {std::sin(0.7), 0.0, std::cos(0.7)};

double stream_function(const Vec3& x) { return dot(kAxis, x); }

// The outward fluxes of a cell through each of its edges, in neighbour order.
std::vector<double> edge_fluxes(const ferry::GeodesicMesh& mesh, std::int64_t cell) {
  const auto degree = static_cast<int>(mesh.offsets()[static_cast<std::size_t>(cell) + 1] -
                                       mesh.offsets()[static_cast<std::size_t>(cell)]);
  std::vector<double> flux(static_cast<std::size_t>(degree));
  for (int k = 0; k < degree; ++k)
    flux[static_cast<std::size_t>(k)] =
        stream_function(mesh.corner(cell, k)) - stream_function(mesh.corner(cell, k - 1));
  return flux;
}

}  // namespace

UpwindModel::UpwindModel(MPI_Comm comm, const ferry::GeodesicMesh& mesh, const ferry::Halo& halo,
                         int levels, double courant)
    : mesh_(mesh), halo_(halo), levels_(levels) {
  // Stability: dt * (outflow / area) <= 1 in every cell. The maximum over ranks is
  // exact, so every rank count gets the same dt.
  double fastest = 0;
  for (std::int64_t i = 0; i < halo.owned_count(); ++i) {
    const std::int64_t cell = halo.cells()[static_cast<std::size_t>(i)];
    double outflow = 0;
    for (const double f : edge_fluxes(mesh, cell)) outflow += std::max(f, 0.0);
    fastest = std::max(fastest, outflow / mesh.area(cell));
  }
  double global_fastest = 0;
  MPI_Allreduce(&fastest, &global_fastest, 1, MPI_DOUBLE, MPI_MAX, comm);
  dt_ = courant / global_fastest;

  const std::int64_t inner = halo.ring_end(halo.depth() - 1);
  const std::int64_t entries = halo.neighbour_offsets()[static_cast<std::size_t>(inner)];
  coefficient_.resize(static_cast<std::size_t>(entries));
  for (std::int64_t i = 0; i < inner; ++i) {
    const std::int64_t cell = halo.cells()[static_cast<std::size_t>(i)];
    const double area = mesh.area(cell);
    const std::vector<double> flux = edge_fluxes(mesh, cell);
    const auto first = halo.neighbour_offsets()[static_cast<std::size_t>(i)];
    for (std::size_t k = 0; k < flux.size(); ++k)
      coefficient_[static_cast<std::size_t>(first) + k] = dt_ * flux[k] / area;
  }
}

void UpwindModel::initialise(std::vector<double>& q) const {
  for (std::int64_t i = 0; i < halo_.owned_count(); ++i) {
    const Vec3& x = mesh_.centre(halo_.cells()[static_cast<std::size_t>(i)]);
    for (int l = 0; l < levels_; ++l) {
      // Level l's bell sits at longitude 1.3 l on the 17th parallel, radius 0.5.
      const Vec3 centre = {std::cos(1.3 * l) * std::cos(0.3), std::sin(1.3 * l) * std::cos(0.3),
                           std::sin(0.3)};
      const double distance = std::acos(std::clamp(dot(x, centre), -1.0, 1.0));
      const double bell = distance < 0.5 ? 0.5 * (1.0 + std::cos(M_PI * distance / 0.5)) : 0.0;
      q[static_cast<std::size_t>(i * levels_ + l)] = 0.1 * (l + 1) + bell;
    }
  }
}

void UpwindModel::step(const std::vector<double>& q, std::vector<double>& next,
                       std::int64_t cells) const {
  const std::vector<std::int64_t>& offsets = halo_.neighbour_offsets();
  const std::vector<std::int64_t>& neighbours = halo_.neighbours();
  for (std::int64_t i = 0; i < cells; ++i)
    for (int l = 0; l < levels_; ++l) {
      const double own = q[static_cast<std::size_t>(i * levels_ + l)];
      double change = 0;
      const auto first = static_cast<std::size_t>(offsets[static_cast<std::size_t>(i)]);
      const auto last = static_cast<std::size_t>(offsets[static_cast<std::size_t>(i) + 1]);
      for (std::size_t k = first; k < last; ++k) {
        const double c = coefficient_[k];
        const auto other = static_cast<std::size_t>(neighbours[k] * levels_ + l);
        const double upwind = c > 0 ? own : q[other];
        change += c * upwind;
      }
      next[static_cast<std::size_t>(i * levels_ + l)] = own - change;
    }
}

double UpwindModel::mass(MPI_Comm comm, const std::vector<double>& q) const {
  double local = 0;
  for (std::int64_t i = 0; i < halo_.owned_count(); ++i) {
    const double area = mesh_.area(halo_.cells()[static_cast<std::size_t>(i)]);
    for (int l = 0; l < levels_; ++l) local += area * q[static_cast<std::size_t>(i * levels_ + l)];
  }
  double total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total;
}
