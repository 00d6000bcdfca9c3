// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The alltoall algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void alltoall_vendor(const call& c);
void alltoall_naive(const call& c);
void alltoall_pairwise(const call& c);
void alltoall_bruck(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor alltoall_algorithms[] = {
    {.coll = collective::alltoall, .alg = algorithm::vendor, .name = "vendor", .run = &alltoall_vendor},
    {.coll = collective::alltoall,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &alltoall_naive,
     .note = "ordered exchanges",
     .cost = "(p−1)(α + n/p·β) up to twice that"},
    {.coll = collective::alltoall,
     .alg = algorithm::pairwise,
     .name = "pairwise",
     .run = &alltoall_pairwise,
     .cost = "(p−1)(α + n/p·β)"},
    {.coll = collective::alltoall,
     .alg = algorithm::bruck,
     .name = "bruck",
     .run = &alltoall_bruck,
     .cost = "⌈log p⌉(α + n/2·β) + local packing"},
};

}  // namespace collectives::detail
