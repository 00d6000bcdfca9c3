#pragma once

// The gather algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void gather_vendor(const call& c);
void gather_naive(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry gather_algorithms[] = {
    {collective::gather, algorithm::vendor, &gather_vendor, true},
    {collective::gather, algorithm::naive, &gather_naive, true},
};

}  // namespace collectives::detail
