// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The allgather algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/block_partition.hpp"
#include "core/pof2_fold.hpp"
#include "core/registry.hpp"

namespace collectives::detail {

void allgather_vendor(const call& c);
void allgather_naive(const call& c);
void allgather_ring(const call& c);
void allgather_recursive_doubling(const call& c);
void allgather_bruck(const call& c);
void allgather_hierarchical(const call& c);

/// All-gather over an uneven partition of `buf` into net.size() blocks: on entry block
/// net.rank() holds this rank's part; on exit every block is filled on every rank. The
/// building block of allreduce_ring and broadcast_scatter_allgather.
void allgather_ring_blocks(const transport& net, std::byte* buf, const block_partition& blocks,
                           std::size_t elem_size);

/// Recursive-doubling all-gather among the power-of-two group of `fold`, over the parts that
/// pof2_fold::first_block_of cuts from `blocks`, undoing a recursive halving of `order` (its
/// distances in reverse): on entry group member g's part fold.part_of(g, order) of `buf` (part g
/// for far_first) holds its data; on exit every member holds every part. A rank that sits out
/// takes no part (its caller folds it in and out). The core of allgather(v)_recursive_doubling
/// (far_first) and the second half of allreduce_rabenseifner (near_first).
void allgather_recursive_doubling_blocks(const transport& net, const pof2_fold& fold, halving_order order,
                                         std::byte* buf, const block_partition& blocks,
                                         std::size_t elem_size);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry allgather_algorithms[] = {
    {collective::allgather, algorithm::vendor, &allgather_vendor, true},
    {collective::allgather, algorithm::naive, &allgather_naive, true},
    {collective::allgather, algorithm::ring, &allgather_ring, true},
    {collective::allgather, algorithm::recursive_doubling, &allgather_recursive_doubling, true},
    {collective::allgather, algorithm::bruck, &allgather_bruck, true},
    {collective::allgather, algorithm::hierarchical, &allgather_hierarchical, true},
};

}  // namespace collectives::detail
