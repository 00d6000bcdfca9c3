// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Every rank r contributes `send` (any number of elements, recv_counts[r] at the root); rank
/// `root` receives rank r's block in `recv` at element recv_displs[r], or packed in rank order
/// (block r after blocks 0 … r−1) without displacements. `recv`, `recv_counts` and
/// `recv_displs` are read at the root only and may be empty elsewhere, as in MPI_Gatherv.
/// Counts and displacements: any contiguous range of an integral type, in elements.
/// Algorithms: `vendor` (MPI_Gatherv), `naive`, `binomial`.
template <detail::buffer S, detail::buffer R, detail::index_range C>
void gatherv(S&& send, R&& recv, C&& recv_counts, int root, MPI_Comm comm,
             selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.recv_counts = detail::make_index_array(recv_counts)};
  detail::run({collective::gatherv, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), nullptr, root, comm, alg, &blocks});
}

/// gatherv with rank r's block placed at element recv_displs[r] of the root's `recv`.
template <detail::buffer S, detail::buffer R, detail::index_range C, detail::index_range D>
void gatherv(S&& send, R&& recv, C&& recv_counts, D&& recv_displs, int root, MPI_Comm comm,
             selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.recv_counts = detail::make_index_array(recv_counts),
                                       .recv_displs = detail::make_index_array(recv_displs)};
  detail::run({collective::gatherv, std::ranges::data(send), std::ranges::size(send), std::ranges::data(recv),
               std::ranges::size(recv), detail::element_type_of<T>(), nullptr, root, comm, alg, &blocks});
}

}  // namespace collectives
