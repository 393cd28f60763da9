// The parts of the module ferry._core, each bound by its own file.
#pragma once

#include <nanobind/nanobind.h>

namespace ferry::python {

namespace nb = nanobind;

/// ferry.Errc and ferry.Error, and the translation of ferry::Error into ferry.Error.
void bind_errors(nb::module_& m);
/// ferry.Layout.
void bind_layout(nb::module_& m);
/// ferry.Exchange.
void bind_exchange(nb::module_& m);
/// ferry.Coupler, its handles, ferry.FieldDirection and ferry.Status.
void bind_coupler(nb::module_& m);
/// ferry.TimeSeriesBuffer, ferry.TimeSeriesReader and ferry.BufferMode.
void bind_buffer(nb::module_& m);
/// ferry.Halo, ferry.CellGraph, ferry.GeodesicMesh and ferry.partition_cells.
void bind_halo(nb::module_& m);
/// ferry.SumMethod, ferry.Conserve, ferry.GridPointData, ferry.global_sums and
/// ferry.conserve.
void bind_conservation(nb::module_& m);
/// ferry.Weights, ferry.Remap, ferry.GridPoints, ferry.GridCells, ferry.MapOn,
/// ferry.RemapMode and the online weight functions.
void bind_regrid(nb::module_& m);
/// ferry.Alltoallv, ferry.Allreduce, ferry.AlltoallvAlgorithm, ferry.AllreduceAlgorithm
/// and the tuned_*_algorithm look-ups.
void bind_collectives(nb::module_& m);

}  // namespace ferry::python
