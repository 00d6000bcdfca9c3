// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Every rank r contributes `send` (recv_counts[r] elements); every rank receives rank r's
/// block in `recv` at element recv_displs[r], or packed in rank order without displacements.
/// Every rank passes the same recv_counts (and recv_displs), as in MPI_Allgatherv.
/// Counts and displacements: any contiguous range of an integral type, in elements.
/// Algorithms: `vendor` (MPI_Allgatherv), `naive`, `ring`, `recursive_doubling`, `bruck`, `sparbit`.
template <detail::buffer S, detail::buffer R, detail::index_range C>
void allgatherv(S&& send, R&& recv, C&& recv_counts, MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.recv_counts = detail::make_index_array(recv_counts)};
  detail::run({collective::allgatherv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, 0,
               comm, alg, &blocks});
}

/// allgatherv with rank r's block placed at element recv_displs[r] of `recv`.
template <detail::buffer S, detail::buffer R, detail::index_range C, detail::index_range D>
void allgatherv(S&& send, R&& recv, C&& recv_counts, D&& recv_displs, MPI_Comm comm,
                selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.recv_counts = detail::make_index_array(recv_counts),
                                       .recv_displs = detail::make_index_array(recv_displs)};
  detail::run({collective::allgatherv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, 0,
               comm, alg, &blocks});
}

}  // namespace collectives
