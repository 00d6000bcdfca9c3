// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The gather algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/binomial_tree.hpp"
#include "kit/block_partition.hpp"
#include "kit/descriptor.hpp"

namespace collectives::detail {

void gather_vendor(const call& c);
void gather_naive(const call& c);
void gather_binomial(const call& c);
void gather_bine(const call& c);
void gather_knomial(const call& c);

/// Gather up the tree of kit/binomial_tree.hpp of radix `radix` (≥ 2): the body of
/// gather_binomial (radix 2) and gather_knomial.
void gather_tree(const call& c, int radix);

/// Gather along `tree` of a vector cut into `blocks` (block r comes from rank r), the mirror of
/// scatter_binomial_blocks. `subtree_data` holds the blocks of this rank's subtree
/// [tree.first, tree.end), block b at element offset blocks.offset(b) − blocks.offset(tree.first);
/// on entry this rank's own block is in place. Children's ranges are received into it, then
/// (except at the root) the whole range goes to the parent. Empty ranges are not sent. The
/// building block of gather_binomial.
void gather_binomial_blocks(const transport& net, const binomial_tree& tree, const block_partition& blocks,
                            std::size_t elem_size, std::byte* subtree_data);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor gather_algorithms[] = {
    {.coll = collective::gather, .alg = algorithm::vendor, .name = "vendor", .run = &gather_vendor},
    {.coll = collective::gather,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &gather_naive,
     .cost = "(p−1)α + (p−1)/p·nβ"},
    {.coll = collective::gather,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &gather_binomial,
     .cost = "⌈log p⌉α + (p−1)/p·nβ"},
    {.coll = collective::gather,
     .alg = algorithm::bine,
     .name = "bine",
     .run = &gather_bine,
     .note = "Bine tree: partners at distance ρ(s) = 1, −1, 3, −5, …, subtrees circular runs of ranks",
     .cost = "⌈log p⌉α + (p−1)/p·nβ (+ α where a root's subtree wraps)"},
    {.coll = collective::gather,
     .alg = algorithm::knomial,
     .name = "knomial",
     .run = &gather_knomial,
     .default_radix = 4,
     .note = "a tree of radix k: up to k − 1 children per level",
     .cost = "(k−1)⌈log_k p⌉α + (p−1)/p·nβ; below E ⌈log_k p⌉α + (p−1)/p·nβ"},
};

}  // namespace collectives::detail
