// Every weight column of a SCRIP remapping file, for MAPPING entries whose file has
// several (bicubic, second-order conservative): the later columns multiply the
// field's gradients the model gives with its put.
#pragma once

#include <string>
#include <vector>

#include "ferry/comm.hpp"
#include "ferry/weights.hpp"

namespace ferry::coupling {

/// Collective over `comm`. The number of weights per link of the SCRIP file `path`
/// (its num_wgts; 1 for a file with a one-dimensional remap_matrix or an ESMF file).
/// Raises Errc::Io on every rank alike if the file cannot be read.
int weight_columns(const Comm& comm, const std::string& path);

/// Collective over `comm`. One Weights per column of remap_matrix, the first being
/// the file's matrix as Weights::read gives it (links in file order in every row, so
/// that each column's product sums in the same order). Each rank reads a slab of
/// about links / P links. A link with an address outside its grid is left out of
/// every column unless `bad` is Refuse (Weights::read of the same file warns of it).
/// Raises on every rank alike: Errc::Io (the file or a variable unreadable or of
/// another type), and the errors of Weights::from_links.
std::vector<Weights> read_weight_columns(const Comm& comm, const std::string& path,
                                         BadWeightIndex bad);

}  // namespace ferry::coupling
