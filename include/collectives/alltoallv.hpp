// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Rank i sends send_counts[j] elements of `send` to rank j, which receives recv_counts[i]
/// elements from rank i; blocks lie packed in rank order, or at the displacements of the second
/// overload. As in MPI_Alltoallv, what a rank receives is sized by its own recv_counts, which
/// must match what the sender sends. Counts and displacements: any contiguous range of an
/// integral type, in elements.
/// Algorithms: `vendor` (MPI_Alltoallv), `naive`, `pairwise`.
template <detail::buffer S, detail::index_range SC, detail::buffer R, detail::index_range RC>
void alltoallv(S&& send, SC&& send_counts, R&& recv, RC&& recv_counts, MPI_Comm comm,
               selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.send_counts = detail::make_index_array(send_counts),
                                       .recv_counts = detail::make_index_array(recv_counts)};
  detail::run({collective::alltoallv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, 0,
               comm, alg, &blocks});
}

/// alltoallv with the block for rank j at element send_displs[j] of `send` and the block from
/// rank i at element recv_displs[i] of `recv`.
template <detail::buffer S, detail::index_range SC, detail::index_range SD, detail::buffer R,
          detail::index_range RC, detail::index_range RD>
void alltoallv(S&& send, SC&& send_counts, SD&& send_displs, R&& recv, RC&& recv_counts, RD&& recv_displs,
               MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::check_buffer_types<S, R>();
  using T = detail::element_of<R>;
  const detail::block_arguments blocks{.send_counts = detail::make_index_array(send_counts),
                                       .send_displs = detail::make_index_array(send_displs),
                                       .recv_counts = detail::make_index_array(recv_counts),
                                       .recv_displs = detail::make_index_array(recv_displs)};
  detail::run({collective::alltoallv, std::ranges::data(send), std::ranges::size(send),
               std::ranges::data(recv), std::ranges::size(recv), detail::element_type_of<T>(), nullptr, 0,
               comm, alg, &blocks});
}

}  // namespace collectives
