// SPDX-License-Identifier: BSD-3-Clause
// reduce_naive — the root receives every rank's vector and folds them one by one.
//
// Steps:   every rank ≠ root sends its vector to the root. The root folds from the top rank
//          down, acc = x(p−1); acc = x(r) ∘ acc for r = p−2 … 0, receiving x(r) just before
//          folding it, so every step is the kernel's `inout = lhs ∘ inout` without copies.
// Cost:    (p−1)·(α + nβ + nγ) at the root.
// Order:   exact rank order: correct for non-commutative ops.
// Limits:  none. Handles send == recv at the root for allreduce_naive in place (the
//          public reduce refuses overlapping buffers).
// Memory:  root: one n-byte receive block, plus an n-byte accumulator when send == recv.
// Ref:     the textbook linear reduce.

#include "algorithms/reduce/reduce.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

namespace {

// The root's part, out of line: the other ranks' one send then runs without its frame (two
// scratch blocks on the stack) being set up and torn down.
[[gnu::noinline]] void fold_at_root(const call& c, std::size_t bytes) {
  const int last = c.size() - 1;
  scratch received = make_scratch(bytes);
  scratch own_accumulator = c.send == c.recv ? make_scratch(bytes) : nullptr;
  std::byte* acc = own_accumulator ? own_accumulator.get() : c.recv;

  if (c.root == last)
    copy_bytes(acc, c.send, bytes);
  else
    c.net.recv(last, acc, bytes);
  for (int r = last - 1; r >= 0; --r) {
    if (r == c.root)
      combine(*c.op, c.send, acc, c.count);
    else
      recv_reduce(c.net, r, acc, received.get(), c.count, c.elem.size, *c.op, peer_side::lower);
  }
  copy_bytes(c.recv, acc, bytes);
}

}  // namespace

void reduce_naive(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  if (c.rank() != c.root) {
    c.net.send(c.root, c.send, bytes);
    return;
  }
  fold_at_root(c, bytes);
}

}  // namespace collectives::detail
