// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The alltoallv algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/block_layout.hpp"
#include "kit/descriptor.hpp"

namespace collectives::detail {

void alltoallv_vendor(const call& c);
void alltoallv_naive(const call& c);
void alltoallv_pairwise(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor alltoallv_algorithms[] = {
    {.coll = collective::alltoallv, .alg = algorithm::vendor, .name = "vendor", .run = &alltoallv_vendor},
    {.coll = collective::alltoallv,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &alltoallv_naive,
     .note = "ordered exchanges",
     .cost = "(p−1)α + Σ_peers max(sent, received)·β, up to twice that"},
    {.coll = collective::alltoallv,
     .alg = algorithm::pairwise,
     .name = "pairwise",
     .run = &alltoallv_pairwise,
     .cost = "(p−1)α + Σ_k (largest block of shift k)·β"},
};

}  // namespace collectives::detail
