// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Rank `root` holds one block per rank in `send`, block r of send_counts[r] elements at
/// element send_displs[r], or packed in rank order without displacements; block r lands in
/// `recv` of rank r, which holds exactly send_counts[r] elements. `send`, `send_counts` and
/// `send_displs` are read at the root only and may be empty elsewhere, as in MPI_Scatterv.
/// Counts and displacements: any contiguous range of an integral type, in elements.
/// Algorithms: `vendor` (MPI_Scatterv), `naive`, `binomial`.
template <detail::buffer S, detail::index_range C, detail::buffer R>
void scatterv(S&& send, C&& send_counts, R&& recv, int root, MPI_Comm comm,
              selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.send_counts = detail::make_index_array(send_counts)};
  detail::run({collective::scatterv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, root,
               comm, alg, &blocks});
}

/// scatterv with rank r's block taken from element send_displs[r] of the root's `send`.
template <detail::buffer S, detail::index_range C, detail::index_range D, detail::buffer R>
void scatterv(S&& send, C&& send_counts, D&& send_displs, R&& recv, int root, MPI_Comm comm,
              selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.send_counts = detail::make_index_array(send_counts),
                                       .send_displs = detail::make_index_array(send_displs)};
  detail::run({collective::scatterv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, root,
               comm, alg, &blocks});
}

}  // namespace collectives
