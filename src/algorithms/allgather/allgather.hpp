// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The allgather algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/block_partition.hpp"
#include "kit/descriptor.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/swing.hpp"

namespace collectives::detail {

void allgather_vendor(const call& c);
void allgather_naive(const call& c);
void allgather_ring(const call& c);
void allgather_recursive_doubling(const call& c);
void allgather_bruck(const call& c);
void allgather_hierarchical(const call& c);
void allgather_swing(const call& c);
void allgather_recursive_multiplying(const call& c);
void allgather_k_bruck(const call& c);
void allgather_sparbit(const call& c);

/// All-gather over an uneven partition of `buf` into net.size() blocks: on entry block
/// net.rank() holds this rank's part; on exit every block is filled on every rank. The
/// building block of allreduce_ring and broadcast_scatter_allgather.
void allgather_ring_blocks(const transport& net, std::byte* buf, const block_partition& blocks,
                           std::size_t elem_size);

/// Sparbit all-gather over a partition of `buf` into net.size() > 1 blocks: on entry block
/// net.rank() holds this rank's part; on exit every block is filled on every rank, each straight
/// in its place. The core of allgather_sparbit and allgatherv_sparbit.
void allgather_sparbit_blocks(const transport& net, std::byte* buf, const block_partition& blocks,
                              std::size_t elem_size);

/// An allgather over the power-of-two group of pof2_fold, around `core`: a folded-out rank hands
/// its block to its partner and gets the whole result back from it; every member has its own
/// block, and its partner's, in place in recv when it runs `core`, which gathers the rest among
/// the members. The fold of allgather_recursive_doubling and allgather_recursive_multiplying.
void allgather_folded(const call& c, void (*core)(const call& c, const pof2_fold& fold));

/// Recursive-doubling all-gather among the power-of-two group of `fold`, over the parts that
/// pof2_fold::first_block_of cuts from `blocks`, undoing a recursive halving of `order` (its
/// distances in reverse): on entry group member g's part fold.part_of(g, order) of `buf` (part g
/// for far_first) holds its data; on exit every member holds every part. A rank that sits out
/// takes no part (its caller folds it in and out). The core of allgather(v)_recursive_doubling
/// (far_first) and the second half of allreduce_rabenseifner (near_first).
void allgather_recursive_doubling_blocks(const transport& net, const pof2_fold& fold, halving_order order,
                                         std::byte* buf, const block_partition& blocks,
                                         std::size_t elem_size);

/// Swing all-gather among the power-of-two group of `fold`, undoing reduce_scatter_swing_blocks
/// (its steps in reverse) over the same runs: on entry run map.position(g) of `buf` holds member
/// g's part; on exit every member holds every run. A rank that sits out takes no part (its caller
/// folds it in and out). The core of allgather_swing and the second half of
/// allreduce_swing_bandwidth. After a Swing scatter (broadcast_bine_bandwidth), `received_at` is
/// swing_scatter_step of this member: it then holds every run it would receive before that step,
/// and the steps from it on pair a holder with a member that lacks the holder's half, so they
/// send one way only (the holder sends, the other receives). Default: every step an exchange.
inline constexpr int swing_no_scatter = 1 << 30;
void allgather_swing_blocks(const transport& net, const pof2_fold& fold, const swing_map& map, std::byte* buf,
                            const block_partition& runs, std::size_t elem_size,
                            int received_at = swing_no_scatter);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor allgather_algorithms[] = {
    {.coll = collective::allgather, .alg = algorithm::vendor, .name = "vendor", .run = &allgather_vendor},
    {.coll = collective::allgather,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &allgather_naive,
     .note = "gather + broadcast",
     .cost = "2(p−1)α + (p+1)(p−1)/p·nβ"},
    {.coll = collective::allgather,
     .alg = algorithm::ring,
     .name = "ring",
     .run = &allgather_ring,
     .cost = "(p−1)α + (p−1)/p·nβ"},
    {.coll = collective::allgather,
     .alg = algorithm::recursive_doubling,
     .name = "recursive_doubling",
     .run = &allgather_recursive_doubling,
     .cost = "log p·α + (p−1)/p·nβ (+ 2α + (1+1/p)nβ fold)"},
    {.coll = collective::allgather,
     .alg = algorithm::bruck,
     .name = "bruck",
     .run = &allgather_bruck,
     .cost = "⌈log p⌉α + (p−1)/p·nβ + local rotation"},
    {.coll = collective::allgather,
     .alg = algorithm::hierarchical,
     .name = "hierarchical",
     .run = &allgather_hierarchical,
     .node_aware = true,
     .note = "across hosts, then within each",
     .cost = "(H−1)(αₙ + n/p·βₙ) + (L−1)(αₛ + n/L·βₛ) + local reordering; hosts of different sizes: flat"},
    {.coll = collective::allgather,
     .alg = algorithm::swing,
     .name = "swing",
     .run = &allgather_swing,
     .note = "doubling with partners at distance ρ(s) = …, 5, 3, 1, 1, blocks in Swing's block map",
     .cost = "log p·α + (p−1)/p·nβ (+ 2α + (1+1/p)nβ fold) + local reordering"},
    {.coll = collective::allgather,
     .alg = algorithm::recursive_multiplying,
     .name = "recursive_multiplying",
     .run = &allgather_recursive_multiplying,
     .default_radix = 4,
     .radix_power_of_two = true,
     .note = "groups of k swap their runs",
     .cost = "below E ⌈log_k p⌉α + (p−1)/p·nβ, above (k−1)⌈log_k p⌉α + (p−1)/p·nβ (+ 2α + (1+1/p)nβ fold)"},
    {.coll = collective::allgather,
     .alg = algorithm::k_bruck,
     .name = "k_bruck",
     .run = &allgather_k_bruck,
     .default_radix = 4,
     .note = "Bruck's dissemination to k − 1 ranks a step",
     .cost = "below E ⌈log_k p⌉α + (p−1)/p·nβ + local rotation, "
             "above (k−1)⌈log_k p⌉α + (p−1)/p·nβ + local rotation"},
    {.coll = collective::allgather,
     .alg = algorithm::sparbit,
     .name = "sparbit",
     .run = &allgather_sparbit,
     .note = "distance halving: farthest partner first, blocks straight to their places",
     .cost = "⌈log p⌉α + (p−1)/p·nβ + local packing"},
};

}  // namespace collectives::detail
