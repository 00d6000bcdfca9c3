// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The gatherv algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include <vector>

#include "kit/binomial_tree.hpp"
#include "kit/block_layout.hpp"
#include "kit/descriptor.hpp"

namespace collectives::detail {

void gatherv_vendor(const call& c);
void gatherv_naive(const call& c);
void gatherv_binomial(const call& c);

/// The counts a binomial gatherv or scatterv needs away from the root: as in MPI they exist
/// only at the root (`at_root`, null elsewhere), but an inner rank sizes its messages by its
/// subtree's. The root sends every child with a subtree of more than one rank that subtree's
/// counts, which it passes on likewise; a leaf needs none (its own block is `own`, the size of
/// its send or recv). Returns every rank's block length, zero outside this rank's subtree.
/// Cost: ⌈log p⌉ steps of one message of at most p counts (8 bytes each), inner ranks only.
std::vector<std::size_t> binomial_subtree_counts(const transport& net, const binomial_tree& tree,
                                                 const block_layout* at_root, std::size_t own);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor gatherv_algorithms[] = {
    {.coll = collective::gatherv, .alg = algorithm::vendor, .name = "vendor", .run = &gatherv_vendor},
    {.coll = collective::gatherv,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &gatherv_naive,
     .cost = "(p−1)α + (N − b_root)β"},
    {.coll = collective::gatherv,
     .alg = algorithm::binomial,
     .name = "binomial",
     .run = &gatherv_binomial,
     .note = "counts sent down the tree first",
     .cost = "⌈log p⌉α + (N − b_root)β + counts: ⌈log p⌉α + 8(p−1)β"},
};

}  // namespace collectives::detail
