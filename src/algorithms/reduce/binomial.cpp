// SPDX-License-Identifier: BSD-3-Clause
// reduce_binomial — partial results flow up a binomial tree, each rank folding in its children's
// results; the root ends with x0 ∘ x1 ∘ … ∘ x(p−1) after ⌈log p⌉ steps.
//
// Steps:   the tree of kit/binomial_tree.hpp, run bottom-up: a rank starts from its own vector,
//          folds in its children's results smallest subtree first, then sends its result to its
//          parent. Every subtree is an interval of ranks and each child's interval lies wholly
//          above or wholly below what the rank has folded so far, so the child's result goes on
//          that side (acc ∘ child or child ∘ acc). 4 ranks, root 1 (xa..b = xa ∘ … ∘ xb):
//            step 0: 0 → 1  x0         3 → 2  x3      1: x0..1 = x0 ∘ x1   2: x2..3 = x2 ∘ x3
//            step 1: 2 → 1  x2..3                     1: x0..3 = x0..1 ∘ x2..3
// Cost:    ⌈log p⌉·(α + nβ + nγ), plus one n-byte copy of its own input at a rank whose first
//          child lies below it (the kernel writes into one operand; never with root 0).
// Order:   exact rank order for every root: correct for non-commutative ops. Unlike the classic
//          tree over ranks relative to the root, this needs no tree rooted at rank 0 and no extra
//          message to carry the result from rank 0 to the root.
// Limits:  none. Handles send == recv at the root for compositions in place (the public
//          reduce refuses overlapping buffers).
// Memory:  one n-byte block on ranks with children, plus a second on inner non-root ranks (the
//          root's second is recv). The partial result alternates between the two: a child above
//          is folded in as acc ∘ child where the child's result landed, which then holds it, so
//          nothing is copied back; the first buffer is chosen so the last result lands in recv.
// Ref:     MPICH reduce_intra_binomial; Boost.MPI's order-keeping tree reduce; Chan, Heimlich,
//          Purkayastha, van de Geijn, "Collective communication: theory, practice, and
//          experience" (2007).

#include "algorithms/reduce/reduce.hpp"
#include "kit/binomial_tree.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_tree(const call& c, int radix) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const binomial_tree tree(c.rank(), c.size(), c.root, radix);
  if (tree.children.empty()) {
    c.net.send(tree.parent, c.send, bytes);
    return;
  }
  // Two buffers: `home` (recv at the root) and `spare`. The result so far lies in `acc`, or still in
  // this rank's input while acc is null. Each child above moves the result into the buffer its
  // result landed in; `moves` counts those still to come, so the first buffer written is the one
  // from which an even number of moves ends in home.
  scratch spare = make_scratch(bytes);
  scratch own_home = tree.parent >= 0 ? make_scratch(bytes) : nullptr;
  std::byte* const home = own_home ? own_home.get() : c.recv;
  const auto other = [&](const std::byte* b) { return b == home ? spare.get() : home; };
  int moves = 0;
  for (const binomial_tree::child& child : tree.children) moves += child.first > c.rank();
  std::byte* acc = c.send == home ? home : nullptr;  // in place at the root: the input is in recv
  const auto first_buffer = [&] { return moves % 2 == 0 ? home : spare.get(); };
  // Smallest subtree first: it is the one adjacent to what acc covers so far.
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child) {
    if (child->first > c.rank()) {
      // acc ∘ child, computed where the child's result lands.
      --moves;
      std::byte* landing = acc ? other(acc) : first_buffer();
      c.net.recv(child->rank, landing, bytes);
      combine(*c.op, acc ? acc : c.send, landing, c.count);
      acc = landing;
    } else {
      // child ∘ acc, computed in acc: the input must first sit in a buffer the kernel may write.
      if (!acc) {
        acc = first_buffer();
        copy_bytes(acc, c.send, bytes);
      }
      std::byte* landing = other(acc);
      c.net.recv(child->rank, landing, bytes);
      combine(*c.op, landing, acc, c.count);
    }
  }
  if (tree.parent >= 0)
    c.net.send(tree.parent, acc, bytes);
  else
    copy_bytes(c.recv, acc, bytes);  // only in place with an odd number of moves
}

void reduce_binomial(const call& c) { reduce_tree(c, 2); }

}  // namespace collectives::detail
