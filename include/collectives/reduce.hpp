// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Rank `root` receives in `recv` (n elements) the element-wise x0 ∘ x1 ∘ … ∘ x(p−1) of every
/// rank's `send` (n elements), in rank order. `recv` may be empty on the other ranks.
/// Algorithms: `vendor` (MPI_Reduce), `naive`, `binomial`, `rabenseifner` (commutative ops only),
/// `pipelined_tree` (commutative ops only), `hierarchical` (node-aware; commutative ops only), `bine`
/// (commutative ops only), `bine_bandwidth` (commutative ops only), `knomial`.
template <detail::buffer S, detail::buffer R, class Op>
void reduce(S&& send, R&& recv, Op op, int root, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::reduction red = detail::make_reduction<T>(op);
  detail::run({collective::reduce, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), &red, root, comm, alg});
}

}  // namespace collectives
