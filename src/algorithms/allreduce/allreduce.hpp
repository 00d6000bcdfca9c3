// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The allreduce algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void allreduce_vendor(const call& c);
void allreduce_naive(const call& c);
void allreduce_ring(const call& c);
void allreduce_recursive_doubling(const call& c);
void allreduce_rabenseifner(const call& c);
void allreduce_hierarchical(const call& c);
void allreduce_swing_bandwidth(const call& c);
void allreduce_swing_latency(const call& c);
void allreduce_recursive_multiplying(const call& c);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor allreduce_algorithms[] = {
    {.coll = collective::allreduce, .alg = algorithm::vendor, .name = "vendor", .run = &allreduce_vendor},
    {.coll = collective::allreduce,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &allreduce_naive,
     .note = "reduce + broadcast",
     .cost = "2(p−1)α + 2(p−1)nβ + (p−1)nγ"},
    {.coll = collective::allreduce,
     .alg = algorithm::ring,
     .name = "ring",
     .run = &allreduce_ring,
     .keeps_rank_order = false,
     .cuts_vector = true,
     .note = "ring reduce-scatter + ring all-gather",
     .cost = "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ"},
    {.coll = collective::allreduce,
     .alg = algorithm::recursive_doubling,
     .name = "recursive_doubling",
     .run = &allreduce_recursive_doubling,
     .cost = "log p·(α + nβ + nγ) (+ 2(α + nβ) + nγ fold)"},
    {.coll = collective::allreduce,
     .alg = algorithm::rabenseifner,
     .name = "rabenseifner",
     .run = &allreduce_rabenseifner,
     .keeps_rank_order = false,
     .cuts_vector = true,
     .note = "recursive-halving reduce-scatter + recursive-doubling all-gather",
     .cost = "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ 3α + 2nβ + nγ fold)"},
    {.coll = collective::allreduce,
     .alg = algorithm::hierarchical,
     .name = "hierarchical",
     .run = &allreduce_hierarchical,
     .keeps_rank_order = false,
     .node_aware = true,
     .note = "two ranks per host: a crossed ring across hosts, senders pass partial sums to the next host's "
             "receivers, receivers pass the final blocks on; more ranks per host: ring reduce-scatter within "
             "each host, every local rank's shard all-reduced across hosts, ring all-gather within",
     .cost = "two per host: (3H−2)(αₛ + n/H·βₛ) + 2(H−1)(αₙ + n/H·βₙ) + γ terms; more: 2(L−1)αₛ + "
             "2(L−1)/L·nβₛ + 2(H−1)αₙ + 2(H−1)/H·(n/L)βₙ + γ terms; hosts of different sizes: reduce, "
             "all-reduce among hosts' first ranks, broadcast"},
    {.coll = collective::allreduce,
     .alg = algorithm::swing_bandwidth,
     .name = "swing_bandwidth",
     .run = &allreduce_swing_bandwidth,
     .keeps_rank_order = false,
     .cuts_vector = true,
     .note = "Swing reduce-scatter + Swing all-gather",
     .cost = "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ 2α + 2nβ + nγ fold)"},
    {.coll = collective::allreduce,
     .alg = algorithm::swing_latency,
     .name = "swing_latency",
     .run = &allreduce_swing_latency,
     .keeps_rank_order = false,
     .note = "whole-vector exchanges with Swing's partners, far ones first",
     .cost = "log p·(α + nβ + nγ) (+ 2α + 2nβ + nγ fold)"},
    {.coll = collective::allreduce,
     .alg = algorithm::recursive_multiplying,
     .name = "recursive_multiplying",
     .run = &allreduce_recursive_multiplying,
     .default_radix = 4,
     .radix_power_of_two = true,
     .note = "groups of k swap whole vectors",
     .cost =
         "below E ⌈log_k p⌉(α + (k−1)n(β + γ)), above (k−1)⌈log_k p⌉(α + nβ + nγ) (+ 2α + 2nβ + nγ fold)"},
};

}  // namespace collectives::detail
