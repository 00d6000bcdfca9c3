// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The reduce algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/descriptor.hpp"

namespace collectives::detail {

void reduce_vendor(const call& c);
void reduce_naive(const call& c);
void reduce_binomial(const call& c);
void reduce_rabenseifner(const call& c);
void reduce_hierarchical(const call& c);
void reduce_pipelined_tree(const call& c);
void reduce_bine(const call& c);
void reduce_bine_bandwidth(const call& c);
void reduce_knomial(const call& c);

/// Reduce in rank order up the tree of kit/binomial_tree.hpp of radix `radix` (≥ 2): the body
/// of reduce_binomial (radix 2) and reduce_knomial.
void reduce_tree(const call& c, int radix);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor reduce_algorithms[] = {
    {.coll = collective::reduce, .alg = algorithm::vendor, .name = "vendor", .run = &reduce_vendor},
    {.coll = collective::reduce,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &reduce_naive,
     .cost = "(p−1)(α + nβ + nγ)"},
    {.coll = collective::reduce,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &reduce_binomial,
     .cost = "⌈log p⌉(α + nβ + nγ)"},
    {.coll = collective::reduce,
     .alg = algorithm::rabenseifner,
     .name = "rabenseifner",
     .run = &reduce_rabenseifner,
     .keeps_rank_order = false,
     .cuts_vector = true,
     .note = "recursive-halving reduce-scatter + binomial gather",
     .cost = "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ fold for p not a power of two)"},
    {.coll = collective::reduce,
     .alg = algorithm::pipelined_tree,
     .name = "pipelined_tree",
     .run = &reduce_pipelined_tree,
     .keeps_rank_order = false,
     .note = "segments up a binary tree",
     .cost = "(2⌊log p⌋ + 3(S − 1))(α + nβ/S) + 2(⌊log p⌋ + S − 1)·nγ/S, S segments of 32 KiB"},
    {.coll = collective::reduce,
     .alg = algorithm::hierarchical,
     .name = "hierarchical",
     .run = &reduce_hierarchical,
     .keeps_rank_order = false,
     .node_aware = true,
     .note = "reduce within each host, then among hosts",
     .cost = "⌈log L⌉(αₛ + nβₛ + nγ) + ⌈log H⌉(αₙ + nβₙ + nγ) (+ αₛ + nβₛ when the root is not its host's "
             "first rank)"},
    {.coll = collective::reduce,
     .alg = algorithm::bine,
     .name = "bine",
     .run = &reduce_bine,
     .keeps_rank_order = false,
     .note = "up a Bine tree: partners at distances ρ(s) = 1, 1, 3, 5, …",
     .cost = "⌈log p⌉(α + nβ + nγ)"},
    {.coll = collective::reduce,
     .alg = algorithm::bine_bandwidth,
     .name = "bine_bandwidth",
     .run = &reduce_bine_bandwidth,
     .keeps_rank_order = false,
     .cuts_vector = true,
     .note = "Swing reduce-scatter + gather up the reverse of Swing's scatter",
     .cost = "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ (+ α + nβ + nγ fold, α + n/2·β more when the root sits out)"},
    {.coll = collective::reduce,
     .alg = algorithm::knomial,
     .name = "knomial",
     .run = &reduce_knomial,
     .default_radix = 4,
     .note = "up a tree of radix k: up to k − 1 children per level",
     .cost = "(k−1)⌈log_k p⌉(α + nβ + nγ); below E ⌈log_k p⌉(α + (k−1)n(β + γ))"},
};

}  // namespace collectives::detail
