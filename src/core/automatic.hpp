#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"

namespace collectives::detail {

/// The rule behind algorithm::automatic: one of the library's own algorithms (never vendor)
/// for collective `c` on `p` ranks moving `bytes` (the per-rank vector of broadcast, reduce and
/// allreduce, one block otherwise). A non-commutative op always gets an order-keeping one.
algorithm choose_automatic(collective c, int p, std::size_t bytes, bool commutative);

}  // namespace collectives::detail
