// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The allgatherv algorithms: one function per file in this folder, described in the table below
// (kit/descriptor.hpp), from which the registry, the lists and the tests follow.

#include "kit/block_layout.hpp"
#include "kit/descriptor.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void allgatherv_vendor(const call& c);
void allgatherv_naive(const call& c);
void allgatherv_ring(const call& c);
void allgatherv_recursive_doubling(const call& c);
void allgatherv_bruck(const call& c);
void allgatherv_sparbit(const call& c);

/// Runs `gather(buf, blocks)` on the result packed in rank order (`blocks`: every rank's block,
/// packed): straight in recv when the user's displacements pack the blocks so, else in a packed
/// copy that is then spread to the displacements (elements outside the blocks stay untouched).
template <class Gather>
void on_packed_result(const call& c, Gather gather) {
  const block_layout& layout = *c.recv_blocks;
  const block_partition blocks = layout.partition();
  if (layout.packed()) {
    gather(c.recv, blocks);
    return;
  }
  scratch packed = make_scratch(c.bytes(blocks.count()));
  gather(packed.get(), blocks);
  unpack_blocks(c.recv, packed.get(), layout, c.elem.size, 0, c.size());
}

// Vendor first: it is the baseline row of the benchmark. The order is algorithms_for()'s.
inline constexpr algorithm_descriptor allgatherv_algorithms[] = {
    {.coll = collective::allgatherv, .alg = algorithm::vendor, .name = "vendor", .run = &allgatherv_vendor},
    {.coll = collective::allgatherv,
     .alg = algorithm::naive,
     .name = "naive",
     .run = &allgatherv_naive,
     .note = "gatherv + broadcast",
     .cost = "2(p−1)α + (p − 1 + (N − b0)/N)·Nβ"},
    {.coll = collective::allgatherv,
     .alg = algorithm::ring,
     .name = "ring",
     .run = &allgatherv_ring,
     .cost = "(p−1)α + Σ_steps (largest block in flight)β: (p−1)/p·Nβ equal, up to (p−1)·b_max·β"},
    {.coll = collective::allgatherv,
     .alg = algorithm::recursive_doubling,
     .name = "recursive_doubling",
     .run = &allgatherv_recursive_doubling,
     .cost = "log p·α + (p−1)/p·Nβ equal (+ 2α + bβ + Nβ fold)"},
    {.coll = collective::allgatherv,
     .alg = algorithm::bruck,
     .name = "bruck",
     .run = &allgatherv_bruck,
     .cost = "⌈log p⌉α + (p−1)/p·Nβ equal + local rotation"},
    {.coll = collective::allgatherv,
     .alg = algorithm::sparbit,
     .name = "sparbit",
     .run = &allgatherv_sparbit,
     .note = "distance halving: farthest partner first, blocks straight to their places",
     .cost = "⌈log p⌉α + (p−1)/p·Nβ equal + local packing"},
};

}  // namespace collectives::detail
