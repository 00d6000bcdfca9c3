// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The scan (inclusive prefix reduction) algorithms: one function per file in this folder,
// listed in the table below that dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void scan_vendor(const call& c);
void scan_naive(const call& c);
void scan_recursive_doubling(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it); both of the
// library's algorithms combine contiguous runs of ranks, lower on the left.
inline constexpr algorithm_entry scan_algorithms[] = {
    {collective::scan, algorithm::vendor, &scan_vendor, true},
    {collective::scan, algorithm::naive, &scan_naive, true},
    {collective::scan, algorithm::recursive_doubling, &scan_recursive_doubling, true},
};

}  // namespace collectives::detail
