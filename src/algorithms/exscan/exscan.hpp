// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The exscan (exclusive prefix reduction) algorithms: one function per file in this folder, described in the
// table below (kit/descriptor.hpp), from which the registry, the lists and the tests follow. Rank 0's recv
// is never written: none of them needs an identity element.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void exscan_vendor(const call& c);
void exscan_naive(const call& c);
void exscan_recursive_doubling(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s. Both of
// the library's algorithms keep rank order: they combine contiguous runs of ranks, lower on the left.
inline constexpr algorithm_descriptor exscan_algorithms[] = {
    {.coll = collective::exscan, .alg = algorithm::vendor, .name = "vendor", .run = &exscan_vendor},
    {.coll = collective::exscan,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &exscan_naive,
     .note = "a chain",
     .cost = "(p−1)(α + nβ) + (p−2)nγ"},
    {.coll = collective::exscan,
     .alg = algorithm::recursive_doubling,
     .name = "recursive_doubling",
     .run = &exscan_recursive_doubling,
     .cost = "⌈log p⌉(α + nβ) + (2⌈log p⌉ − 2)nγ, any p without a fold"},
};

}  // namespace collectives::detail
