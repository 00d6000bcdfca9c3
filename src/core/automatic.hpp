#pragma once

#include <cstddef>

#include "collectives/algorithm.hpp"

namespace collectives::detail {

/// The rule behind algorithm::automatic: one of the library's own algorithms (never vendor)
/// for collective `c` on `p` ranks moving `count` elements of `bytes` bytes in all (the vector of
/// broadcast, reduce and allreduce, one block otherwise). A non-commutative op always gets an
/// order-keeping one. The rule is documented in automatic.cpp.
algorithm choose_automatic(collective c, int p, std::size_t bytes, std::size_t count, bool commutative);

}  // namespace collectives::detail
