// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The alltoallv algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/block_layout.hpp"
#include "core/registry.hpp"

namespace collectives::detail {

void alltoallv_vendor(const call& c);
void alltoallv_naive(const call& c);
void alltoallv_pairwise(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry alltoallv_algorithms[] = {
    {collective::alltoallv, algorithm::vendor, &alltoallv_vendor, true},
    {collective::alltoallv, algorithm::naive, &alltoallv_naive, true},
    {collective::alltoallv, algorithm::pairwise, &alltoallv_pairwise, true},
};

}  // namespace collectives::detail
