// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Inclusive prefix reduction: rank r receives in `recv` the element-wise x0 ∘ x1 ∘ … ∘ xr of
/// the `send` of ranks 0 … r, in rank order (n elements everywhere, the same n on every rank).
/// Passing the same range as `send` and `recv` scans in place. Every algorithm keeps rank order,
/// so non-commutative ops are fine.
/// Algorithms: `vendor` (MPI_Scan), `naive`, `recursive_doubling`.
template <detail::buffer S, detail::buffer R, class Op>
void scan(S&& send, R&& recv, Op op, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::reduction red = detail::make_reduction<T>(op);
  detail::run({collective::scan, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), &red, 0, comm, alg});
}

/// Exclusive prefix reduction: rank r > 0 receives in `recv` the element-wise
/// x0 ∘ x1 ∘ … ∘ x(r−1) of the `send` of the ranks below it, in rank order; rank 0's `recv` is
/// left untouched (no identity element is needed, so any op works). `recv` holds n elements on
/// every rank. Passing the same range as `send` and `recv` scans in place (rank 0's buffer then
/// keeps its input). Every algorithm keeps rank order.
/// Algorithms: `vendor` (MPI_Exscan), `naive`, `recursive_doubling`.
template <detail::buffer S, detail::buffer R, class Op>
void exscan(S&& send, R&& recv, Op op, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::reduction red = detail::make_reduction<T>(op);
  detail::run({collective::exscan, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), &red, 0, comm, alg});
}

}  // namespace collectives
