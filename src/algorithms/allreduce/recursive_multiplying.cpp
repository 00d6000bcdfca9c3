// SPDX-License-Identifier: BSD-3-Clause
// allreduce_recursive_multiplying — recursive doubling of radix k (a power of two, default 4):
// each step a rank swaps its running result with the k − 1 other members of its group of k and
// combines all k, so the ranks that share a result multiply by k: ⌈log_k p⌉ steps instead of
// log₂ p.
//
// Steps:   over the power-of-two group (pof2_fold), with d = 1, k, k², …: member g's group is
//          the k members g XOR j·d (j = 0 … k − 1) around it, each holding the reduction of an
//          aligned run of d members; g sends its result to the other k − 1 and combines the k
//          results in rank order. Where log₂ pof2 is not a multiple of log₂ k the last step has
//          a smaller group, pof2 / d (k = 4: a group of 2 for an odd log₂ pof2). 16 ranks, k = 4:
//            d = 1: 0, 1, 2, 3 ↔ one another, …, 12–15   every rank: the reduction of its four
//            d = 4: 0, 4, 8, 12 ↔ one another, …, 3, 7, 11, 15   every rank: x0..15
//          Non-power-of-two p = pof2 + rem: the even rank of each of the first rem pairs hands
//          its vector to its odd partner, which folds it in on the left, and gets the result
//          back at the end.
// Cost:    below E ⌈log_k p⌉(α + (k−1)n(β + γ)), above (k−1)⌈log_k p⌉(α + nβ + nγ)
//          (+ 2α + 2nβ + nγ fold), p read as the power-of-two group pof2. Below E a step's
//          k − 1 sends leave together and their latencies overlap; above E the exchanges go
//          one after another. The fold hands the vector in and the result back.
// Transport: below E every send of a step goes before any receive (exchange_with_peers); above
//          E the k − 1 exchanges of a step are pairings (XOR j·d), one after the other, which
//          blocking sends cannot deadlock. The row is for small vectors: above E it pays more
//          latencies than recursive doubling and k − 1 times its bytes.
// Order:   keeps rank order: a group's runs are adjacent and combined left to right
//          (x0 ∘ (x1 ∘ (… ∘ x(k−1))), the same on every member), so every rank holds identical
//          bits; correct for non-commutative ops.
// Limits:  k a power of two, 2 ≤ k ≤ p (the call's radix).
// Memory:  (k − 1) vectors where the peers' results land; the result moves between them and
//          recv, with at most one copy into recv at the end.
// Ref:     Wilkins, Wang, Liu, Pham, Guo, Thakur, Dinda, Hardavellas, "Generalized Collective
//          Algorithms for the Exascale Era", IEEE CLUSTER 2023 (in MPICH as allreduce
//          recursive_multiplying); MPICH's recexch, the same exchange of radix k.

#include <algorithm>
#include <vector>

#include "algorithms/allreduce/allreduce.hpp"
#include "kit/pof2_fold.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void allreduce_recursive_multiplying(const call& c) {
  const int radix = c.radix;
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const pof2_fold fold(c.rank(), c.size());
  if (fold.sits_out()) {
    c.net.send(fold.partner, c.send, bytes);
    c.net.recv(fold.partner, c.recv, bytes);
    return;
  }
  // buffers[i]: where group index i's result lies in a step; this rank's own result is in
  // buffers[own], the peers' land in the others, and the combined result ends in buffers[k − 1].
  scratch spare = make_scratch(bytes * (radix - 1));
  std::vector<std::byte*> buffers(radix, c.recv);
  for (int i = 1; i < radix; ++i) buffers[i] = spare.get() + bytes * (i - 1);
  copy_bytes(c.recv, c.send, bytes);
  if (fold.carries_partner())
    recv_reduce(c.net, fold.partner, c.recv, buffers[1], c.count, c.elem.size, *c.op, peer_side::lower);
  std::byte* result = c.recv;
  std::vector<std::byte*> at(radix);
  std::vector<step_peer> peers(radix - 1);
  for (int d = 1; d < fold.pof2;) {
    const int k = std::min(radix, fold.pof2 / d);
    const int own = fold.group_rank / d % k;
    // Buffers for this step: the result where it is, the other ones for the peers.
    for (int i = 0, free = 0; i < k; ++i) {
      if (i == own) {
        at[i] = result;
        continue;
      }
      while (buffers[free] == result) ++free;
      at[i] = buffers[free++];
    }
    for (int j = 1; j < k; ++j) {
      const int index = own ^ j;
      const int peer = fold.rank_of(fold.group_rank + (index - own) * d);
      peers[j - 1] = {peer, peer, at[index], bytes};
    }
    exchange_with_peers(c.net, std::span(peers.data(), k - 1), result, bytes, 0);
    // x0 ∘ (x1 ∘ (… ∘ x(k−1))), in the last one's buffer.
    for (int i = k - 2; i >= 0; --i) combine(*c.op, at[i], at[k - 1], c.count);
    result = at[k - 1];
    d *= k;
  }
  copy_bytes(c.recv, result, bytes);
  if (fold.carries_partner()) c.net.send(fold.partner, c.recv, bytes);
}

}  // namespace collectives::detail
