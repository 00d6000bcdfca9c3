// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Every rank holds p blocks of n elements in `send`; block j of rank i lands as block i of
/// rank j's `recv` (p·n elements).
/// Algorithms: `vendor` (MPI_Alltoall), `naive`, `pairwise`, `bruck`, `k_bruck`.
template <detail::buffer S, detail::buffer R>
void alltoall(S&& send, R&& recv, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  detail::run({collective::alltoall, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, 0,
               comm, alg});
}

}  // namespace collectives
