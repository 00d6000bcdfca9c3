// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The reduce_scatterv algorithms: one function per file in this folder, listed in the table below
// that dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/block_layout.hpp"
#include "core/pof2_fold.hpp"
#include "core/registry.hpp"

namespace collectives::detail {

void reduce_scatterv_vendor(const call& c);
void reduce_scatterv_naive(const call& c);
void reduce_scatterv_ring(const call& c);
void reduce_scatterv_recursive_halving(const call& c);
void reduce_scatterv_pairwise(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry reduce_scatterv_algorithms[] = {
    {collective::reduce_scatterv, algorithm::vendor, &reduce_scatterv_vendor, true},
    {collective::reduce_scatterv, algorithm::naive, &reduce_scatterv_naive, true},
    {collective::reduce_scatterv, algorithm::ring, &reduce_scatterv_ring, false},
    {collective::reduce_scatterv, algorithm::recursive_halving, &reduce_scatterv_recursive_halving, false},
    {collective::reduce_scatterv, algorithm::pairwise, &reduce_scatterv_pairwise, false},
};

}  // namespace collectives::detail
