// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Every rank contributes `send` (n elements); every rank receives all of them in rank order
/// in `recv` (p·n elements).
/// Algorithms: `vendor` (MPI_Allgather), `naive`, `ring`, `recursive_doubling`, `bruck`, `hierarchical`
/// (node-aware), `swing`, `recursive_multiplying`, `k_bruck`, `sparbit`.
template <detail::buffer S, detail::buffer R>
void allgather(S&& send, R&& recv, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  detail::run({collective::allgather, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, 0,
               comm, alg});
}

}  // namespace collectives
