// First-order upwind advection of tracers on a geodesic mesh, in flux form.
#pragma once

#include <cstdint>
#include <vector>

#include "ferry/geodesic_mesh.hpp"
#include "ferry/halo.hpp"

/// Tracers q (one per level) carried by a fixed, discretely divergence-free flow: a
/// solid-body rotation about a tilted axis, given by a stream function psi(x) = a . x
/// at the cell corners. The volume flux out of cell i through the edge between
/// corners k-1 and k is psi(corner k) - psi(corner k-1): the neighbour computes the
/// same two corners (same bits) in the opposite order, so the two fluxes are exact
/// negatives and the scheme conserves mass.
///
/// One step updates q_i -= sum_k c_ik * (c_ik > 0 ? q_i : q_k), with c_ik = dt * flux /
/// area, summing the neighbours in the mesh's order. A cell's new value thus depends
/// only on its own and its neighbours' old values, in a fixed order: the same bits
/// whatever the partition, rank count, engine or halo depth.
class UpwindModel {
 public:
  /// Collective over `comm` (the time step is the largest stable one over all cells,
  /// times `courant`). Coefficients are set up for the local cells whose neighbours
  /// are all local, [0, halo.ring_end(halo.depth() - 1)).
  UpwindModel(MPI_Comm comm, const ferry::GeodesicMesh& mesh, const ferry::Halo& halo,
              int levels, double courant);

  /// Initial tracers on the owned cells: a cosine bell per level on a background.
  void initialise(std::vector<double>& q) const;
  /// One step for the local cells [0, cells): reads q on those cells and their
  /// neighbours, writes next on those cells.
  void step(const std::vector<double>& q, std::vector<double>& next, std::int64_t cells) const;
  /// Collective: the tracer mass, sum over owned cells and levels of area * q.
  double mass(MPI_Comm comm, const std::vector<double>& q) const;

  double time_step() const noexcept { return dt_; }

 private:
  const ferry::GeodesicMesh& mesh_;
  const ferry::Halo& halo_;
  int levels_;
  double dt_ = 0;
  std::vector<double> coefficient_;  // per neighbour entry of halo.neighbours()
};
