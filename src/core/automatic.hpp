#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"

namespace collectives::detail {

/// The rule behind algorithm::automatic: one of the library's own algorithms (never vendor)
/// for collective `c` on `p` ranks moving `count` elements of `bytes` bytes in all (the vector of
/// broadcast, reduce and allreduce, one block otherwise). A non-commutative op always gets an
/// order-keeping one. The rule is documented in automatic.cpp.
/// The v-variants pass what every rank knows alike, or 0: `bytes` and `count` the whole result
/// of allgatherv and the whole vector of reduce_scatterv, `largest_block` their largest block
/// in bytes; their choice must not depend on anything only some ranks know.
algorithm choose_automatic(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                           std::size_t largest_block = 0);

/// For the drop-in's `fastest` (never for automatic): true where the table in force has a
/// "fastest" section that measured the MPI library's own collective clearly faster than the
/// library's choice for such a call; false without one, for sizes it has no range for, for the
/// v-variants whose sizes are not known alike and for skewed blocks. The arguments are
/// choose_automatic's, so every rank answers alike.
bool vendor_fastest(collective c, int p, std::size_t bytes, std::size_t largest_block = 0);

}  // namespace collectives::detail
