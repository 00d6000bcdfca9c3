// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Like MPI_Reduce_scatter: every rank holds the whole vector in `send` (the sum of
/// recv_counts elements, rank r's block after blocks 0 … r−1); rank r receives in `recv`
/// (recv_counts[r] elements) its block of x0 ∘ x1 ∘ … ∘ x(p−1). Every rank passes the same
/// recv_counts: any contiguous range of an integral type, in elements.
/// Algorithms: `vendor` (MPI_Reduce_scatter), `naive`, `ring` (commutative ops only), `recursive_halving`
/// (commutative ops only), `pairwise` (commutative ops only).
template <detail::buffer S, detail::buffer R, detail::index_range C, class Op>
void reduce_scatterv(S&& send, R&& recv, C&& recv_counts, Op op, MPI_Comm comm,
                     selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::reduction red = detail::make_reduction<T>(op);
  const detail::block_arguments blocks{.recv_counts = detail::make_index_array(recv_counts)};
  detail::run({collective::reduce_scatterv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), &red, 0, comm,
               alg, &blocks});
}

}  // namespace collectives
