// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The scan (inclusive prefix reduction) algorithms: one function per file in this folder, described in the
// table below (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void scan_vendor(const call& c);
void scan_naive(const call& c);
void scan_recursive_doubling(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s. Both of
// the library's algorithms keep rank order: they combine contiguous runs of ranks, lower on the left.
inline constexpr algorithm_descriptor scan_algorithms[] = {
    {.coll = collective::scan, .alg = algorithm::vendor, .name = "vendor", .run = &scan_vendor},
    {.coll = collective::scan,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &scan_naive,
     .note = "a chain",
     .cost = "(p−1)(α + nβ + nγ)"},
    {.coll = collective::scan,
     .alg = algorithm::recursive_doubling,
     .name = "recursive_doubling",
     .run = &scan_recursive_doubling,
     .cost = "⌈log p⌉(α + nβ) + (2⌈log p⌉ − 1)nγ, any p without a fold"},
};

}  // namespace collectives::detail
