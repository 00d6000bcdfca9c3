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
void alltoall_k_bruck(const call& c);

/// Bruck's all-to-all at radix 2 ≤ `radix` ≤ p (k_bruck.cpp): bruck and k_bruck both run it.
void alltoall_bruck_of_radix(const call& c, int radix);

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
    {.coll = collective::alltoall,
     .alg = algorithm::k_bruck,
     .name = "k_bruck",
     .run = &alltoall_k_bruck,
     .default_radix = 4,
     .note = "Bruck's all-to-all of radix k: k − 1 shifts a step",
     .cost =
         "below E ⌈log_k p⌉α + ⌈log_k p⌉·(k−1)/k·nβ + local packing, above (k−1)⌈log_k p⌉α + the same bytes"},
};

}  // namespace collectives::detail
