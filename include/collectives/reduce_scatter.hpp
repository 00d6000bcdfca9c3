// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Block form, like MPI_Reduce_scatter_block: every rank holds p blocks of n elements in `send`;
/// rank i receives in `recv` (n elements) block i of x0 ∘ x1 ∘ … ∘ x(p−1).
/// Algorithms: `vendor` (MPI_Reduce_scatter_block), `naive`, `ring` (commutative ops only),
/// `recursive_halving` (commutative ops only), `pairwise` (commutative ops only), `swing` (commutative ops
/// only), `recursive_multiplying` (commutative ops only).
template <detail::buffer S, detail::buffer R, class Op>
void reduce_scatter(S&& send, R&& recv, Op op, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::reduction red = detail::make_reduction<T>(op);
  detail::run({collective::reduce_scatter, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), &red, 0, comm,
               alg});
}

}  // namespace collectives
