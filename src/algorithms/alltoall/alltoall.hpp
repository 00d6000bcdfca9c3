// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The alltoall algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void alltoall_vendor(const call& c);
void alltoall_naive(const call& c);
void alltoall_pairwise(const call& c);
void alltoall_bruck(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry alltoall_algorithms[] = {
    {collective::alltoall, algorithm::vendor, &alltoall_vendor, true},
    {collective::alltoall, algorithm::naive, &alltoall_naive, true},
    {collective::alltoall, algorithm::pairwise, &alltoall_pairwise, true},
    {collective::alltoall, algorithm::bruck, &alltoall_bruck, true},
};

}  // namespace collectives::detail
