// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Every rank contributes `send` (n elements); rank `root` receives them in rank order in
/// `recv` (p·n elements). `recv` is written at the root only and may be empty elsewhere.
/// Algorithms: `vendor` (MPI_Gather), `naive`, `binomial`, `bine`, `knomial`.
template <detail::buffer S, detail::buffer R>
void gather(S&& send, R&& recv, int root, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  detail::run({collective::gather, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), nullptr, root, comm, alg});
}

}  // namespace collectives
