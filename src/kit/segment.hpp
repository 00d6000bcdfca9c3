// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The segment of the pipelined algorithms (broadcast pipeline and pipelined_tree, reduce
// pipelined_tree): the environment variable COLLECTIVES_PIPELINE_SEGMENT_BYTES (a positive number
// of bytes), read once per process, sets it for all of them; unset, each algorithm has its own
// default (below). It must be the same on every rank (e.g. `mpirun -x`); otherwise the ranks
// disagree on message sizes and the transport reports it. A value that is not a positive integer
// throws collectives::error before any message. collbench reads it the same way to give the
// MPI library's segmented algorithms the same segment (bench/measure/variants.hpp).

#include <cstddef>
#include <string_view>

namespace collectives::detail {

/// The chain's default: what the pipeline was measured with on one node (Open MPI, shared memory).
inline constexpr std::size_t chain_segment_bytes = std::size_t{64} * 1024;
/// The binary trees' default: below a 64 KiB eager limit (Open MPI's TCP, SimGrid SMPI's detached
/// sends), so that a rank passes a segment to its two children without waiting for either; in
/// simulation, large broadcasts ran faster than with 64 KiB segments
/// (docs/measurements/2026-11-27-simulated-pipelined-trees.md).
inline constexpr std::size_t tree_segment_bytes = std::size_t{32} * 1024;

/// The segment in whole elements of `element_size` bytes (at least one): the environment's, else
/// `default_bytes`. `collective` and `rank` name the call in the error.
std::size_t pipeline_segment_elements(std::string_view collective, int rank, std::size_t element_size,
                                      std::size_t default_bytes);

}  // namespace collectives::detail
