// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The allgatherv algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/block_layout.hpp"
#include "core/pof2_fold.hpp"
#include "core/registry.hpp"
#include "core/scratch.hpp"

namespace collectives::detail {

void allgatherv_vendor(const call& c);
void allgatherv_naive(const call& c);
void allgatherv_ring(const call& c);
void allgatherv_recursive_doubling(const call& c);
void allgatherv_bruck(const call& c);

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

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry allgatherv_algorithms[] = {
    {collective::allgatherv, algorithm::vendor, &allgatherv_vendor, true},
    {collective::allgatherv, algorithm::naive, &allgatherv_naive, true},
    {collective::allgatherv, algorithm::ring, &allgatherv_ring, true},
    {collective::allgatherv, algorithm::recursive_doubling, &allgatherv_recursive_doubling, true},
    {collective::allgatherv, algorithm::bruck, &allgatherv_bruck, true},
};

}  // namespace collectives::detail
