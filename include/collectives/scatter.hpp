// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Rank `root` holds p blocks of n elements in `send`; block i lands in `recv` (n elements) of
/// rank i. `send` is read at the root only and may be empty elsewhere.
/// Algorithms: `vendor` (MPI_Scatter), `naive`, `binomial`, `bine`, `knomial`.
template <detail::buffer S, detail::buffer R>
void scatter(S&& send, R&& recv, int root, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  detail::run({collective::scatter, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), nullptr, root, comm, alg});
}

}  // namespace collectives
