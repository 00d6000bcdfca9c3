// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Copies `buf` of rank `root` into `buf` of every rank. Every rank passes the same number of
/// elements.
/// Algorithms: `vendor` (MPI_Bcast), `naive`, `binomial`, `pipeline`, `scatter_allgather`,
/// `scatter_recursive_doubling`, `pipelined_tree`, `hierarchical` (node-aware), `bine`, `bine_bandwidth`,
/// `knomial`.
template <detail::writable_buffer B>
void broadcast(B&& buf, int root, MPI_Comm comm, selection alg = algorithm::automatic) {
  using T = detail::element_of<B>;
  detail::run({collective::broadcast, std::ranges::data(buf), std::ranges::size(buf), std::ranges::data(buf),
               std::ranges::size(buf), detail::element_type_of<T>(), nullptr, root, comm, alg});
}

}  // namespace collectives
