// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The binomial tree shared by every tree algorithm (broadcast, scatter, gather, reduce), for
// any root. It is built by halving: the holder of an interval of ranks splits it where the
// lower part is the largest power of two below its length, keeps the half it sits in and hands
// the other half to that half's first rank; both halves recurse. ⌈log2 p⌉ steps, each rank
// receives once. With root 0 it is the classic binomial tree (rank r's children r + 2^k).
//
// Every subtree is a contiguous interval of ranks whatever the root, so scatter and gather move
// a subtree's blocks as one contiguous range of the user's buffer (no rotation at the root),
// and reduce keeps rank order with no extra message (a child's result lies wholly above or
// wholly below what its parent holds).
//
//   p = 6, root = 4:   step 0: 4 keeps [4,6), hands [0,4) to 0
//                      step 1: 4 hands [5,6) to 5;  0 hands [2,4) to 2
//                      step 2: 0 hands [1,2) to 1;  2 hands [3,4) to 3

#include <bit>
#include <vector>

namespace collectives::detail {

struct binomial_tree {
  /// A child of this rank and the ranks [first, end) of its subtree; `rank == first`.
  struct child {
    int rank;
    int first;
    int end;
  };

  binomial_tree(int rank, int p, int root);

  int parent = -1;  ///< −1 at the root
  int first = 0;    ///< this rank's subtree is the ranks [first, end)
  int end = 0;
  /// In the order a broadcast or scatter sends to them (largest subtree first); gather and
  /// reduce receive from them in reverse.
  std::vector<child> children;
};

inline binomial_tree::binomial_tree(int rank, int p, int root) : end(p) {
  // [lo, hi): the interval that contains `rank` at this step, and the rank that holds it.
  int lo = 0, hi = p, holder = root;
  while (hi - lo > 1) {
    const int mid = lo + static_cast<int>(std::bit_ceil(static_cast<unsigned>(hi - lo)) / 2);
    const bool holder_below = holder < mid;
    const int other_lo = holder_below ? mid : lo, other_hi = holder_below ? hi : mid;
    if (rank == holder) children.push_back({other_lo, other_lo, other_hi});
    if (rank >= other_lo && rank < other_hi) {
      if (rank == other_lo) {
        parent = holder;
        first = other_lo;
        end = other_hi;
      }
      lo = other_lo;
      hi = other_hi;
      holder = other_lo;
    } else {
      lo = holder_below ? lo : mid;
      hi = holder_below ? mid : hi;
    }
  }
}

}  // namespace collectives::detail
