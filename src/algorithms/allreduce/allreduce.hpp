// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The allreduce algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void allreduce_vendor(const call& c);
void allreduce_naive(const call& c);
void allreduce_ring(const call& c);
void allreduce_recursive_doubling(const call& c);
void allreduce_rabenseifner(const call& c);
void allreduce_hierarchical(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry allreduce_algorithms[] = {
    {collective::allreduce, algorithm::vendor, &allreduce_vendor, true},
    {collective::allreduce, algorithm::naive, &allreduce_naive, true},
    {collective::allreduce, algorithm::ring, &allreduce_ring, false},
    {collective::allreduce, algorithm::recursive_doubling, &allreduce_recursive_doubling, true},
    {collective::allreduce, algorithm::rabenseifner, &allreduce_rabenseifner, false},
    {collective::allreduce, algorithm::hierarchical, &allreduce_hierarchical, false},
};

}  // namespace collectives::detail
