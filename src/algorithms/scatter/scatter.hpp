// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The scatter algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/binomial_tree.hpp"
#include "kit/block_partition.hpp"
#include "kit/descriptor.hpp"

namespace collectives::detail {

void scatter_vendor(const call& c);
void scatter_naive(const call& c);
void scatter_binomial(const call& c);
void scatter_bine(const call& c);
void scatter_knomial(const call& c);

/// Scatter down the tree of kit/binomial_tree.hpp of radix `radix` (≥ 2): the body of
/// scatter_binomial (radix 2) and scatter_knomial.
void scatter_tree(const call& c, int radix);

/// Scatter along `tree` of a vector cut into `blocks` (block r belongs to rank r). At the root,
/// `root_data` holds every block at its partition offset. Every other rank receives the blocks
/// of its subtree [tree.first, tree.end) into `subtree_data` (block b at element offset
/// blocks.offset(b) − blocks.offset(tree.first)) and forwards its children's ranges from there.
/// Empty ranges are not sent. The building block of scatter_binomial and
/// broadcast_scatter_allgather.
void scatter_binomial_blocks(const transport& net, const binomial_tree& tree, const block_partition& blocks,
                             std::size_t elem_size, const std::byte* root_data, std::byte* subtree_data);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor scatter_algorithms[] = {
    {.coll = collective::scatter, .alg = algorithm::vendor, .name = "vendor", .run = &scatter_vendor},
    {.coll = collective::scatter,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &scatter_naive,
     .cost = "(p−1)α + (p−1)/p·nβ"},
    {.coll = collective::scatter,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &scatter_binomial,
     .cost = "⌈log p⌉α + (p−1)/p·nβ"},
    {.coll = collective::scatter,
     .alg = algorithm::bine,
     .name = "bine",
     .run = &scatter_bine,
     .note = "Bine tree: partners at distance ρ(s) = 1, −1, 3, −5, …, subtrees circular runs of ranks",
     .cost = "⌈log p⌉α + (p−1)/p·nβ (+ α where a root's subtree wraps)"},
    {.coll = collective::scatter,
     .alg = algorithm::knomial,
     .name = "knomial",
     .run = &scatter_knomial,
     .default_radix = 4,
     .note = "a tree of radix k: up to k − 1 children per level",
     .cost = "(k−1)⌈log_k p⌉α + (p−1)/p·nβ; below E ⌈log_k p⌉α + (p−1)/p·nβ"},
};

}  // namespace collectives::detail
