// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The barrier algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow. A barrier moves no data:
// every message is empty, and a rank may leave only once every rank has entered.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void barrier_vendor(const call& c);
void barrier_naive(const call& c);
void barrier_binomial(const call& c);
void barrier_dissemination(const call& c);
void barrier_recursive_doubling(const call& c);
void barrier_k_dissemination(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor barrier_algorithms[] = {
    {.coll = collective::barrier, .alg = algorithm::vendor, .name = "vendor", .run = &barrier_vendor},
    {.coll = collective::barrier,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &barrier_naive,
     .note = "all report to rank 0, which releases them",
     .cost = "2(p−1)α"},
    {.coll = collective::barrier,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &barrier_binomial,
     .note = "up the tree, then down",
     .cost = "2⌈log p⌉α"},
    {.coll = collective::barrier,
     .alg = algorithm::dissemination,
     .name = "dissemination",
     .run = &barrier_dissemination,
     .note = "shifts by 1, 2, 4, …",
     .cost = "⌈log p⌉α"},
    {.coll = collective::barrier,
     .alg = algorithm::recursive_doubling,
     .name = "recursive_doubling",
     .run = &barrier_recursive_doubling,
     .note = "pairings",
     .cost = "log p·α (+ 2α fold)"},
    {.coll = collective::barrier,
     .alg = algorithm::k_dissemination,
     .name = "k_dissemination",
     .run = &barrier_k_dissemination,
     .default_radix = 4,
     .note = "shifts by j·d, j = 1 … k − 1, d = 1, k, k², …",
     .cost = "⌈log_k p⌉α below E; (k−1)⌈log_k p⌉α with synchronous sends"},
};

}  // namespace collectives::detail
