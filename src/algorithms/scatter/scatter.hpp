// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The scatter algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/binomial_tree.hpp"
#include "core/block_partition.hpp"
#include "core/registry.hpp"

namespace collectives::detail {

void scatter_vendor(const call& c);
void scatter_naive(const call& c);
void scatter_binomial(const call& c);

/// Scatter along `tree` of a vector cut into `blocks` (block r belongs to rank r). At the root,
/// `root_data` holds every block at its partition offset. Every other rank receives the blocks
/// of its subtree [tree.first, tree.end) into `subtree_data` (block b at element offset
/// blocks.offset(b) − blocks.offset(tree.first)) and forwards its children's ranges from there.
/// Empty ranges are not sent. The building block of scatter_binomial and
/// broadcast_scatter_allgather.
void scatter_binomial_blocks(const transport& net, const binomial_tree& tree, const block_partition& blocks,
                             std::size_t elem_size, const std::byte* root_data, std::byte* subtree_data);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry scatter_algorithms[] = {
    {collective::scatter, algorithm::vendor, &scatter_vendor, true},
    {collective::scatter, algorithm::naive, &scatter_naive, true},
    {collective::scatter, algorithm::binomial, &scatter_binomial, true},
};

}  // namespace collectives::detail
