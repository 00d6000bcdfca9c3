// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The exscan (exclusive prefix reduction) algorithms: one function per file in this folder,
// listed in the table below that dispatch, algorithms_for() and keeps_rank_order() read.
// Rank 0's recv is never written: none of them needs an identity element.

#include "core/registry.hpp"

namespace collectives::detail {

void exscan_vendor(const call& c);
void exscan_naive(const call& c);
void exscan_recursive_doubling(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it); both of the
// library's algorithms combine contiguous runs of ranks, lower on the left.
inline constexpr algorithm_entry exscan_algorithms[] = {
    {collective::exscan, algorithm::vendor, &exscan_vendor, true},
    {collective::exscan, algorithm::naive, &exscan_naive, true},
    {collective::exscan, algorithm::recursive_doubling, &exscan_recursive_doubling, true},
};

}  // namespace collectives::detail
