// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The gather algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/binomial_tree.hpp"
#include "core/block_partition.hpp"
#include "core/registry.hpp"

namespace collectives::detail {

void gather_vendor(const call& c);
void gather_naive(const call& c);
void gather_binomial(const call& c);

/// Gather along `tree` of a vector cut into `blocks` (block r comes from rank r), the mirror of
/// scatter_binomial_blocks. `subtree_data` holds the blocks of this rank's subtree
/// [tree.first, tree.end), block b at element offset blocks.offset(b) − blocks.offset(tree.first);
/// on entry this rank's own block is in place. Children's ranges are received into it, then
/// (except at the root) the whole range goes to the parent. Empty ranges are not sent. The
/// building block of gather_binomial.
void gather_binomial_blocks(const transport& net, const binomial_tree& tree, const block_partition& blocks,
                            std::size_t elem_size, std::byte* subtree_data);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry gather_algorithms[] = {
    {collective::gather, algorithm::vendor, &gather_vendor, true},
    {collective::gather, algorithm::naive, &gather_naive, true},
    {collective::gather, algorithm::binomial, &gather_binomial, true},
};

}  // namespace collectives::detail
