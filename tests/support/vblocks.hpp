// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Shared pieces of the v-variant tests: the count patterns every case runs over and the two
// layouts of a buffer's blocks (packed in rank order, or placed by displacements with gaps and
// in reverse rank order).

#include <cstdint>
#include <string>
#include <vector>

#include "support/checks.hpp"

namespace testing {

/// Per-rank block sizes: counts[r] is rank r's block.
struct count_pattern {
  std::string name;
  std::vector<std::size_t> counts;
  bool large = false;  ///< only on world and for the headline types (in_matrix)
};

/// equal (3 and 7p+3 per rank), zeros on every other rank, all zero, one rank (the last) holding
/// everything, seeded random (0 … 2p per rank); with `large`, one rank holding 100 000 and
/// 25 000 on each other rank. `seed` varies the random pattern between calls.
std::vector<count_pattern> count_patterns(int p, bool large, std::uint64_t seed = 0);

/// Where the blocks of `counts` lie in a buffer.
struct block_places {
  std::vector<int> displs;
  std::size_t extent = 0;  ///< the buffer's size in elements
};

/// Packed in rank order: displs are the prefix sums, extent the total.
block_places packed_places(const std::vector<std::size_t>& counts);
/// Reverse rank order with a gap of two elements before every block and one at the end.
block_places scattered_places(const std::vector<std::size_t>& counts);

/// The counts as int, the type an MPI program passes.
std::vector<int> as_ints(const std::vector<std::size_t>& counts);

/// A buffer of `places.extent` poison elements with block r (values<T>(r, counts[r], first)) at
/// its place: what the oracle expects in a gathered buffer.
template <class T>
std::vector<T> placed_blocks(const std::vector<std::size_t>& counts, const block_places& places,
                             std::size_t first_index = 0) {
  std::vector<T> out(places.extent, poison<T>());
  for (std::size_t r = 0; r < counts.size(); ++r) {
    const std::vector<T> block = values<T>(static_cast<int>(r), counts[r], first_index);
    std::copy(block.begin(), block.end(), out.begin() + places.displs[r]);
  }
  return out;
}

}  // namespace testing
