// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The cost line of every (collective, algorithm), as text (cost_model.cpp): what the report prints
// beside the model's figure, which comes from the priced schedule (price.hpp).

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <string>
#include <string_view>

namespace collbench {

/// The line as text, e.g. "R(2(p−1))·t(n/p) + (p−1)/p·nγ", or empty when the table has none.
/// `algorithm` is a row label: a library algorithm, or vendor:<name> for the few internals of Open
/// MPI that run the library's algorithm of the same name (its textbook cost, with a note where Open
/// MPI switches to another algorithm, at `p` ranks or for few elements); vendor and the other
/// internals have none.
std::string cost_formula(collectives::collective c, std::string_view algorithm, int p);

/// The library algorithm whose schedule Open MPI's internal `name` runs for a call of `count`
/// elements on p ranks (vendor_lines), or empty: none, or not Open MPI.
std::string_view vendor_schedule(collectives::collective c, std::string_view name, int p, std::size_t count);

/// The library's pipeline segment in bytes, as src/core/segment.cpp reads it:
/// COLLECTIVES_PIPELINE_SEGMENT_BYTES, a positive integer, else `unset` (the chain's 64 KiB; the
/// binary trees' is 32 KiB). (A value the library rejects stops the run at the first pipelined
/// call; here it counts as unset.)
std::size_t pipeline_segment_bytes(std::size_t unset = 65536);

}  // namespace collbench
