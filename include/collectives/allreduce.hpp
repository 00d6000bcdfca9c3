// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Every rank receives in `recv` the element-wise x0 ∘ x1 ∘ … ∘ x(p−1) of every rank's `send`
/// (any n, the same on every rank); every rank holds identical bits. Passing the same range
/// as `send` and `recv` reduces in place.
/// Algorithms: `vendor` (MPI_Allreduce), `naive`, `ring` (commutative ops only), `recursive_doubling`,
/// `rabenseifner` (commutative ops only), `hierarchical` (node-aware; commutative ops only),
/// `swing_bandwidth` (commutative ops only), `swing_latency` (commutative ops only), `recursive_multiplying`.
template <detail::buffer S, detail::buffer R, class Op>
void allreduce(S&& send, R&& recv, Op op, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::reduction red = detail::make_reduction<T>(op);
  detail::run({collective::allreduce, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), &red, 0, comm,
               alg});
}

}  // namespace collectives
