// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The reduce_scatter algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/block_partition.hpp"
#include "kit/descriptor.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/swing.hpp"

namespace collectives::detail {

void reduce_scatter_vendor(const call& c);
void reduce_scatter_naive(const call& c);
void reduce_scatter_ring(const call& c);
void reduce_scatter_recursive_halving(const call& c);
void reduce_scatter_pairwise(const call& c);
void reduce_scatter_swing(const call& c);
void reduce_scatter_recursive_multiplying(const call& c);

/// Ring reduce-scatter over an uneven partition of a vector into net.size() blocks, for a
/// commutative op: `in` is this rank's whole vector (read only); on exit block net.rank() of
/// `acc` holds that block reduced over every rank. The other blocks of `acc` are clobbered (the
/// partial sums pass through them). `acc` may equal `in` (in place: then one block of scratch
/// is taken). The first half of allreduce_ring.
void reduce_scatter_ring_blocks(const transport& net, const std::byte* in, std::byte* acc,
                                const block_partition& blocks, std::size_t elem_size, const reduction& op);

/// A reduce_scatter over the power-of-two group of pof2_fold, around `core`: it runs on every
/// rank with a p·n accumulator `acc` (null on a rank that sits out) and leaves group member g's
/// blocks reduced in place there (a *_blocks function over one block per original rank, far_first);
/// then a member that carried its partner hands the partner's block back. The fold of
/// reduce_scatter_recursive_halving and reduce_scatter_recursive_multiplying.
void reduce_scatter_folded(const call& c, void (*core)(const call& c, const pof2_fold& fold, std::byte* acc));

/// Recursive-halving reduce-scatter among the power-of-two group of `fold`, for a commutative
/// op, over the parts that pof2_fold::first_block_of cuts from `blocks`, pairing the members in
/// `order`. Every rank calls it with its whole vector `in` (read only): a rank that sits out
/// hands it to its partner and returns; on exit group member g holds part
/// fold.part_of(g, order) (part g for far_first) reduced over every rank in that part of `acc`,
/// the rest of `acc` being clobbered. `acc` may equal `in` (in place). Scratch: up to about half
/// the vector when in place or carrying a partner, a quarter otherwise. The first half of
/// reduce_scatter(v)_recursive_halving and reduce_rabenseifner (far_first) and of
/// allreduce_rabenseifner (near_first).
void reduce_scatter_recursive_halving_blocks(const transport& net, const pof2_fold& fold, halving_order order,
                                             const std::byte* in, std::byte* acc,
                                             const block_partition& blocks, std::size_t elem_size,
                                             const reduction& op);

/// Recursive halving of radix `radix` (a power of two, 2 ≤ radix) among the power-of-two group of
/// `fold`, for a commutative op, over the parts that pof2_fold::first_block_of cuts from
/// `blocks`: as reduce_scatter_recursive_halving_blocks (far_first) with the run split `radix`
/// ways a step. On exit group member g holds part g reduced over every rank in that part of
/// `acc`, the rest of `acc` being clobbered; a rank that sits out hands its vector to its
/// partner and returns. `acc` may equal `in` (in place). Scratch: (k − 1)/k of the vector.
void reduce_scatter_recursive_multiplying_blocks(const transport& net, const pof2_fold& fold, int radix,
                                                 const std::byte* in, std::byte* acc,
                                                 const block_partition& blocks, std::size_t elem_size,
                                                 const reduction& op);

/// Swing reduce-scatter among the power-of-two group of `fold`, for a commutative op, over the
/// pof2 runs of `runs` laid out in the order of `map` (run x is the part of member map.member(x)).
/// Only group members call it, each with its whole vector `in` (read only) in that layout; on
/// exit run map.position(g) of `acc` holds member g's part reduced over every member, the rest
/// of `acc` being clobbered. `acc` may equal `in` (in place). Scratch: up to half the vector in
/// place, a quarter otherwise. The first half of reduce_scatter_swing and allreduce_swing_bandwidth.
void reduce_scatter_swing_blocks(const transport& net, const pof2_fold& fold, const swing_map& map,
                                 const std::byte* in, std::byte* acc, const block_partition& runs,
                                 std::size_t elem_size, const reduction& op);

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor reduce_scatter_algorithms[] = {
    {.coll = collective::reduce_scatter,
     .alg = algorithm::vendor,
     .name = "vendor",
     .run = &reduce_scatter_vendor},
    {.coll = collective::reduce_scatter,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &reduce_scatter_naive,
     .note = "reduce + scatter",
     .cost = "(p−1)(α + nβ + nγ) + (p−1)(α + n/p·β)"},
    {.coll = collective::reduce_scatter,
     .alg = algorithm::ring,
     .name = "ring",
     .run = &reduce_scatter_ring,
     .keeps_rank_order = false,
     .cost = "(p−1)α + (p−1)/p·n(β + γ)"},
    {.coll = collective::reduce_scatter,
     .alg = algorithm::recursive_halving,
     .name = "recursive_halving",
     .run = &reduce_scatter_recursive_halving,
     .keeps_rank_order = false,
     .cost = "log p·α + (p−1)/p·n(β + γ) (+ fold)"},
    {.coll = collective::reduce_scatter,
     .alg = algorithm::pairwise,
     .name = "pairwise",
     .run = &reduce_scatter_pairwise,
     .keeps_rank_order = false,
     .cost = "(p−1)α + (p−1)/p·n(β + γ)"},
    {.coll = collective::reduce_scatter,
     .alg = algorithm::swing,
     .name = "swing",
     .run = &reduce_scatter_swing,
     .keeps_rank_order = false,
     .note = "halving with partners at distance ρ(s) = 1, −1, 3, −5, …, blocks in Swing's block map",
     .cost = "log p·α + (p−1)/p·n(β + γ) (+ fold)"},
    {.coll = collective::reduce_scatter,
     .alg = algorithm::recursive_multiplying,
     .name = "recursive_multiplying",
     .run = &reduce_scatter_recursive_multiplying,
     .keeps_rank_order = false,
     .default_radix = 4,
     .radix_power_of_two = true,
     .note = "groups of k split their run k ways",
     .cost = "below E ⌈log_k p⌉α + (p−1)/p·n(β + γ), above (k−1)⌈log_k p⌉α + the same bytes (+ fold)"},
};

}  // namespace collectives::detail
