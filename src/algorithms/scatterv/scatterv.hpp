// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The scatterv algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/binomial_tree.hpp"
#include "kit/block_layout.hpp"
#include "kit/descriptor.hpp"

namespace collectives::detail {

void scatterv_vendor(const call& c);
void scatterv_naive(const call& c);
void scatterv_binomial(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor scatterv_algorithms[] = {
    {.coll = collective::scatterv, .alg = algorithm::vendor, .name = "vendor", .run = &scatterv_vendor},
    {.coll = collective::scatterv,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &scatterv_naive,
     .cost = "(p−1)α + (N − b_root)β"},
    {.coll = collective::scatterv,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &scatterv_binomial,
     .note = "counts sent down the tree first",
     .cost = "⌈log p⌉α + (N − b_root)β + counts: ⌈log p⌉α + 8(p−1)β"},
};

}  // namespace collectives::detail
