// SPDX-License-Identifier: BSD-3-Clause
// allgatherv_sparbit — allgather_sparbit for blocks of any size: ⌈log p⌉ steps of halving
// distance for any p, every block straight to its place in rank order (no rotation, no fold).
//
// Steps:   those of allgather_sparbit (allgather_sparbit_blocks) on the blocks packed in rank
//          order: before the step of d = 2^(L−1), …, 1 rank r holds the blocks r, r − 2d, … and
//          sends them to r + d while it receives r − d, r − 3d, … from r − d; both sides know
//          every block's count, so each knows the sizes it sends and receives. For p not a power
//          of two the steps whose d is a bit of 2^L − p leave out the last block each way.
// Cost:    ⌈log p⌉α + (p−1)/p·Nβ equal + local packing (N = all blocks); skewed counts cost up to
//          ⌈log p⌉·b_max·β more. A step of several blocks is packed into scratch and unpacked on
//          arrival: two local passes over (p−1)/p·N elements in all.
// Transport: one shift a step (r + d to, r − d from): transport::exchange, deadlock-free whatever
//          the sizes; below E the send goes first (one latency).
// Order:   no reduction.
// Limits:  none: any counts (empty runs travel as empty messages), any displacements.
// Memory:  scratch for the largest step's message both ways; a packed copy of N elements when
//          recv's blocks are not packed in rank order (on_packed_result).
// Ref:     Loch, Koslovski, "Sparbit: a new logarithmic-cost and data locality-aware MPI Allgather
//          algorithm", SBAC-PAD 2021; Open MPI 5 coll/base allgatherv sparbit.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allgatherv/allgatherv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgatherv_sparbit(const call& c) {
  if (c.recv_blocks->total() == 0) return;
  on_packed_result(c, [&](std::byte* buf, const block_partition& blocks) {
    copy_bytes(buf + c.bytes(blocks.offset(c.rank())), c.send, c.bytes(c.count));
    if (c.size() > 1) allgather_sparbit_blocks(c.net, buf, blocks, c.elem.size);
  });
}

}  // namespace collectives::detail
