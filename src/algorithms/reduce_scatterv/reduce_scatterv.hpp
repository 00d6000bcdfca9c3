// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The reduce_scatterv algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/block_layout.hpp"
#include "kit/descriptor.hpp"
#include "kit/pof2_fold.hpp"

namespace collectives::detail {

void reduce_scatterv_vendor(const call& c);
void reduce_scatterv_naive(const call& c);
void reduce_scatterv_ring(const call& c);
void reduce_scatterv_recursive_halving(const call& c);
void reduce_scatterv_pairwise(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor reduce_scatterv_algorithms[] = {
    {.coll = collective::reduce_scatterv,
     .alg = algorithm::vendor,
     .name = "vendor",
     .run = &reduce_scatterv_vendor},
    {.coll = collective::reduce_scatterv,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &reduce_scatterv_naive,
     .note = "reduce + scatterv",
     .cost = "(p−1)(α + Nβ + Nγ) + (p−1)α + (N − b0)β"},
    {.coll = collective::reduce_scatterv,
     .alg = algorithm::ring,
     .name = "ring",
     .run = &reduce_scatterv_ring,
     .keeps_rank_order = false,
     .cost = "(p−1)α + (p−1)/p·N(β + γ) equal, up to (p−1)·b_max·(β + γ)"},
    {.coll = collective::reduce_scatterv,
     .alg = algorithm::recursive_halving,
     .name = "recursive_halving",
     .run = &reduce_scatterv_recursive_halving,
     .keeps_rank_order = false,
     .cost = "log p·α + (p−1)/p·N(β + γ) equal (+ fold)"},
    {.coll = collective::reduce_scatterv,
     .alg = algorithm::pairwise,
     .name = "pairwise",
     .run = &reduce_scatterv_pairwise,
     .keeps_rank_order = false,
     .cost = "(p−1)(α + b_max(β + γ))"},
};

}  // namespace collectives::detail
