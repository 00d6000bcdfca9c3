// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The broadcast algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void broadcast_vendor(const call& c);
void broadcast_naive(const call& c);
void broadcast_binomial(const call& c);
void broadcast_pipeline(const call& c);
void broadcast_scatter_allgather(const call& c);
void broadcast_hierarchical(const call& c);
void broadcast_pipelined_tree(const call& c);
void broadcast_scatter_recursive_doubling(const call& c);
void broadcast_bine(const call& c);
void broadcast_bine_bandwidth(const call& c);
void broadcast_knomial(const call& c);

/// Broadcast down the tree of kit/binomial_tree.hpp of radix `radix` (≥ 2): the body of
/// broadcast_binomial (radix 2) and broadcast_knomial.
void broadcast_tree(const call& c, int radix);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor broadcast_algorithms[] = {
    {.coll = collective::broadcast, .alg = algorithm::vendor, .name = "vendor", .run = &broadcast_vendor},
    {.coll = collective::broadcast,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &broadcast_naive,
     .cost = "(p−1)(α + nβ)"},
    {.coll = collective::broadcast,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &broadcast_binomial,
     .cost = "⌈log p⌉(α + nβ)"},
    {.coll = collective::broadcast,
     .alg = algorithm::pipeline,
     .name = "pipeline",
     .run = &broadcast_pipeline,
     .note = "a segmented chain",
     .cost = "(p − 2 + S)(α + nβ/S), S segments of `COLLECTIVES_PIPELINE_SEGMENT_BYTES` (default 64 KiB)"},
    {.coll = collective::broadcast,
     .alg = algorithm::scatter_allgather,
     .name = "scatter_allgather",
     .run = &broadcast_scatter_allgather,
     .cuts_vector = true,
     .note = "binomial scatter + ring all-gather",
     .cost = "(⌈log p⌉ + p − 1)α + 2(p−1)/p·nβ"},
    {.coll = collective::broadcast,
     .alg = algorithm::scatter_recursive_doubling,
     .name = "scatter_recursive_doubling",
     .run = &broadcast_scatter_recursive_doubling,
     .cuts_vector = true,
     .note = "binomial scatter + recursive-doubling all-gather",
     .cost = "2⌈log p⌉α + 2(p−1)/p·nβ; not a power of two: + 2α + (n/p + n)β"},
    {.coll = collective::broadcast,
     .alg = algorithm::pipelined_tree,
     .name = "pipelined_tree",
     .run = &broadcast_pipelined_tree,
     .note = "segments down a binary tree",
     .cost = "(2⌊log p⌋ + 3(S − 1))(α + nβ/S), S segments of 32 KiB (`COLLECTIVES_PIPELINE_SEGMENT_BYTES`)"},
    {.coll = collective::broadcast,
     .alg = algorithm::hierarchical,
     .name = "hierarchical",
     .run = &broadcast_hierarchical,
     .node_aware = true,
     .note = "within the root's host, among hosts, within the others",
     .cost = "2⌈log L⌉(αₛ + nβₛ) + ⌈log H⌉(αₙ + nβₙ)"},
    {.coll = collective::broadcast,
     .alg = algorithm::bine,
     .name = "bine",
     .run = &broadcast_bine,
     .note = "a Bine tree: partners at distances ρ(s) = …, 5, 3, 1, 1",
     .cost = "⌈log p⌉(α + nβ)"},
    {.coll = collective::broadcast,
     .alg = algorithm::bine_bandwidth,
     .name = "bine_bandwidth",
     .run = &broadcast_bine_bandwidth,
     .cuts_vector = true,
     .note = "scatter along Swing's halving + Swing all-gather",
     .cost = "2 log p·α + 2(p−1)/p·nβ (+ α + nβ fold, α + nβ more when the root sits out)"},
    {.coll = collective::broadcast,
     .alg = algorithm::knomial,
     .name = "knomial",
     .run = &broadcast_knomial,
     .default_radix = 4,
     .note = "a tree of radix k: up to k − 1 children per level",
     .cost = "(k−1)⌈log_k p⌉(α + nβ); below E ⌈log_k p⌉(α + (k−1)nβ)"},
};

}  // namespace collectives::detail
