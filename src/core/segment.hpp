// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The segment of the pipelined algorithms (broadcast pipeline and pipelined_tree, reduce
// pipelined_tree): read once per process from the environment variable
// COLLECTIVES_PIPELINE_SEGMENT_BYTES (a positive number of bytes; default 64 KiB). It must be the
// same on every rank (e.g. `mpirun -x`); otherwise the ranks disagree on message sizes and the
// transport reports it. A value that is not a positive integer throws collectives::error before
// any message. bench/cost_model.cpp reads it the same way to price these algorithms.

#include <cstddef>
#include <string_view>

namespace collectives::detail {

inline constexpr std::size_t default_segment_bytes = std::size_t{64} * 1024;

/// The segment in bytes; `collective` and `rank` name the call in the error.
std::size_t pipeline_segment_bytes(std::string_view collective, int rank);

/// The segment in whole elements of `element_size` bytes: at least one.
inline std::size_t pipeline_segment_elements(std::string_view collective, int rank, std::size_t element_size) {
  const std::size_t elements = pipeline_segment_bytes(collective, rank) / element_size;
  return elements > 0 ? elements : 1;
}

}  // namespace collectives::detail
