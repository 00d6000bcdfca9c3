// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The gatherv algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include <vector>

#include "core/binomial_tree.hpp"
#include "core/block_layout.hpp"
#include "core/registry.hpp"

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

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry gatherv_algorithms[] = {
    {collective::gatherv, algorithm::vendor, &gatherv_vendor, true},
    {collective::gatherv, algorithm::naive, &gatherv_naive, true},
    {collective::gatherv, algorithm::binomial, &gatherv_binomial, true},
};

}  // namespace collectives::detail
