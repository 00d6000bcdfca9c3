// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter_ring — partial sums travel once around the ring, each rank adding its input.
// After p−1 steps every rank holds its own block reduced over all ranks.
//
// Steps:   at step s = 0 … p−2 rank r sends the partial sum of block (r − s − 1) mod p to r+1
//          (its bare input of that block at step 0) and receives the partial sum of block
//          (r − s − 2) mod p from r−1, adding its own input of that block; the block received at
//          the last step is r's own.
//            step 0: 0→1 b3   1→2 b0   2→3 b1   3→0 b2     (each sum holds 1 rank's input)
//            step 1: 0→1 b2   1→2 b3   2→3 b0   3→0 b1     (2 ranks' inputs)
//            step 2: 0→1 b1   1→2 b2   2→3 b3   3→0 b0     → rank r holds b_r of all 4 ranks
// Cost:    (p−1)α + (p−1)/p·n(β + γ), n the whole vector: bandwidth-optimal.
// Order:   the partial sums are folded in ring order, not rank order: commutative ops only.
// Limits:  none; uneven blocks (used by allreduce_ring for any count, empty blocks included) are
//          handled by reduce_scatter_ring_blocks.
// Memory:  one block: the partial sums alternate between it and recv, the last one landing in
//          recv. reduce_scatter_ring_blocks keeps them in its whole-vector accumulator instead
//          (no scratch; one block in place).
// Ref:     Patarasuk, Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
//          workstations" (2009); Chan et al., "Collective communication: theory, practice, and
//          experience" (2007).

#include <algorithm>

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {
namespace {

// The schedule of both entry points. `keep(step, block)` is where the partial sum of `block`
// received at `step` stays until it is passed on at the next step. In place, that is where this
// rank's own input of the block still sits, so the incoming sum lands in scratch first. The op
// commutes, so which side of it this rank's input goes on does not matter.
template <class Keep>
void ring_steps(const transport& net, const std::byte* in, bool in_place, const block_partition& blocks,
                std::size_t elem_size, const reduction& op, Keep keep) {
  const int p = net.size(), rank = net.rank();
  const int right = (rank + 1) % p, left = (rank - 1 + p) % p;
  const auto input = [&](int block) { return in + blocks.offset(block) * elem_size; };
  // In place, incoming sums land in scratch as large as the largest block (the first, for an even
  // partition; any one for the v-variants' blocks).
  std::size_t largest = 0;
  for (int b = 0; b < p; ++b) largest = std::max(largest, blocks.length(b));
  scratch landing = in_place ? make_scratch(largest * elem_size) : nullptr;
  const std::byte* outgoing = input(left);
  for (int step = 0; step < p - 1; ++step) {
    const int send_block = (rank - step - 1 + p) % p, recv_block = (rank - step - 2 + 2 * p) % p;
    const trace_blocks mark(send_block, recv_block, p);
    const std::size_t n = blocks.length(recv_block);
    std::byte* sum = keep(step, recv_block);
    std::byte* arrival = in_place ? landing.get() : sum;
    net.exchange(right, outgoing, blocks.length(send_block) * elem_size, left, arrival, n * elem_size);
    combine(op, in_place ? arrival : input(recv_block), sum, n);
    outgoing = sum;
  }
}

}  // namespace

void reduce_scatter_ring_blocks(const transport& net, const std::byte* in, std::byte* acc,
                                const block_partition& blocks, std::size_t elem_size, const reduction& op) {
  ring_steps(net, in, in == acc, blocks, elem_size, op,
             [&](int, int block) { return acc + blocks.offset(block) * elem_size; });
}

void reduce_scatter_ring(const call& c) {
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, c.bytes(c.count));
    return;
  }
  // Equal blocks, so two block-sized slots suffice: scratch and recv, taken alternately and
  // counted back from the last step, whose sum must land in recv.
  const int last = c.size() - 2;
  scratch slot = make_scratch(c.bytes(c.count));
  ring_steps(c.net, c.send, false, block_partition(c.count * static_cast<std::size_t>(c.size()), c.size()),
             c.elem.size, *c.op, [&](int step, int) { return (last - step) % 2 == 0 ? c.recv : slot.get(); });
}

}  // namespace collectives::detail
