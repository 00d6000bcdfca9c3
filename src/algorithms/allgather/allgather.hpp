#pragma once

// The allgather algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void allgather_vendor(const call& c);
void allgather_naive(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry allgather_algorithms[] = {
    {collective::allgather, algorithm::vendor, &allgather_vendor, true},
    {collective::allgather, algorithm::naive, &allgather_naive, true},
};

}  // namespace collectives::detail
