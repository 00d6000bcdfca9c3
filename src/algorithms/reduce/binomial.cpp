// reduce_binomial — partial results flow up a binomial tree, each rank folding in its children's
// results; the root ends with x0 ∘ x1 ∘ … ∘ x(p−1) after ⌈log p⌉ steps.
//
// Steps:   the tree of core/binomial_tree.hpp, run bottom-up: a rank starts from its own vector,
//          folds in its children's results smallest subtree first, then sends its result to its
//          parent. Every subtree is an interval of ranks and each child's interval lies wholly
//          above or wholly below what the rank has folded so far, so the child's result goes on
//          that side (acc ∘ child or child ∘ acc). 4 ranks, root 1 (xa..b = xa ∘ … ∘ xb):
//            step 0: 0 → 1  x0         3 → 2  x3      1: x0..1 = x0 ∘ x1   2: x2..3 = x2 ∘ x3
//            step 1: 2 → 1  x2..3                     1: x0..3 = x0..1 ∘ x2..3
// Cost:    ⌈log p⌉·(α + nβ + nγ), plus an n-byte copy for each child whose interval lies above
//          (recv_reduce's `inout = inout ∘ received`).
// Transport: nδ + log p·(t(n) + nγ + nδ) (root 0), on the library's blocking, ordered
//          transport (bench/cost_model.cpp).
// Order:   exact rank order for every root: correct for non-commutative ops. Unlike the classic
//          tree over ranks relative to the root, this needs no tree rooted at rank 0 and no extra
//          message to carry the result from rank 0 to the root.
// Limits:  none. Handles send == recv at the root for compositions in place (the public
//          reduce refuses overlapping buffers).
// Memory:  one n-byte receive block on ranks with children, plus an n-byte accumulator on inner
//          non-root ranks (the root accumulates in recv); leaves send straight from send.
// Ref:     MPICH reduce_intra_binomial; Boost.MPI's order-keeping tree reduce; Chan, Heimlich,
//          Purkayastha, van de Geijn, "Collective communication: theory, practice, and
//          experience" (2007).

#include "algorithms/reduce/reduce.hpp"
#include "core/binomial_tree.hpp"
#include "core/primitives.hpp"
#include "core/scratch.hpp"

namespace collectives::detail {

void reduce_binomial(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const binomial_tree tree(c.rank(), c.size(), c.root);
  if (tree.children.empty()) {
    c.net.send(tree.parent, c.send, bytes);
    return;
  }
  scratch received = make_scratch(bytes);
  scratch own_accumulator = tree.parent >= 0 ? make_scratch(bytes) : nullptr;
  std::byte* acc = own_accumulator ? own_accumulator.get() : c.recv;
  copy_bytes(acc, c.send, bytes);
  // Smallest subtree first: it is the one adjacent to what acc covers so far.
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child)
    recv_reduce(c.net, child->rank, acc, received.get(), c.count, c.elem.size, *c.op,
                child->first > c.rank() ? peer_side::higher : peer_side::lower);
  if (tree.parent >= 0) c.net.send(tree.parent, acc, bytes);
}

}  // namespace collectives::detail
