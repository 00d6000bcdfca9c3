// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The binomial tree shared by every tree algorithm (broadcast, scatter, gather, reduce), for
// any root, and its radix-k form, the k-nomial tree. It is built by cutting: the holder of an
// interval of ranks cuts it into pieces of the largest power of k below its length (the last
// piece may be shorter), keeps the piece it sits in and hands every other piece to that piece's
// first rank; every piece recurses. Each rank receives once. At k = 2 the cut is a halving and
// the tree has ⌈log2 p⌉ steps; with root 0 it is the classic binomial tree (rank r's children
// r + 2^j). At radix k a holder hands out up to k − 1 pieces per level, over ⌈log_k p⌉ levels.
//
// Every subtree is a contiguous interval of ranks whatever the root, so scatter and gather move
// a subtree's blocks as one contiguous range of the user's buffer (no rotation at the root),
// and reduce keeps rank order with no extra message. Within a level the pieces below the
// holder's are listed going up, then those above it going down; read in reverse, as reduce
// reads them, each child's interval lies next to what the rank has folded so far.
//
//   p = 6, root = 4, k = 2:   step 0: 4 keeps [4,6), hands [0,4) to 0
//                             step 1: 4 hands [5,6) to 5;  0 hands [2,4) to 2
//                             step 2: 0 hands [1,2) to 1;  2 hands [3,4) to 3
//   p = 6, root = 4, k = 4:   level 0: 4 keeps [4,6), hands [0,4) to 0
//                             level 1: 4 hands [5,6) to 5;  0 hands [3,4), [2,3), [1,2) to 3, 2, 1

#include <algorithm>
#include <vector>

namespace collectives::detail {

struct binomial_tree {
  /// A child of this rank and the ranks [first, end) of its subtree; `rank == first`.
  struct child {
    int rank;
    int first;
    int end;
  };

  /// `radix` ≥ 2: 2 is the binomial tree, k the k-nomial tree.
  binomial_tree(int rank, int p, int root, int radix = 2);

  int parent = -1;  ///< −1 at the root
  int first = 0;    ///< this rank's subtree is the ranks [first, end)
  int end = 0;
  /// In the order a broadcast or scatter sends to them (the widest cut first); gather and
  /// reduce receive from them in reverse.
  std::vector<child> children;
};

inline binomial_tree::binomial_tree(int rank, int p, int root, int radix) : end(p) {
  // [lo, hi): the interval that contains `rank` at this level, and the rank that holds it.
  int lo = 0, hi = p, holder = root;
  while (hi - lo > 1) {
    int piece = 1;  // the largest power of the radix below hi − lo, without overflow
    while (piece <= (hi - lo - 1) / radix) piece *= radix;
    const int pieces = (hi - lo + piece - 1) / piece;
    const int holder_piece = (holder - lo) / piece, rank_piece = (rank - lo) / piece;
    const auto hand_out = [&](int j) {
      const int piece_lo = lo + j * piece, piece_hi = std::min(piece_lo + piece, hi);
      if (rank == holder) children.push_back({piece_lo, piece_lo, piece_hi});
      if (rank == piece_lo) {
        parent = holder;
        first = piece_lo;
        end = piece_hi;
      }
    };
    for (int j = 0; j < holder_piece; ++j) hand_out(j);
    for (int j = pieces - 1; j > holder_piece; --j) hand_out(j);
    if (rank_piece != holder_piece) holder = lo + rank_piece * piece;
    lo += rank_piece * piece;
    hi = std::min(lo + piece, hi);
  }
}

}  // namespace collectives::detail
