// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/detail/request.hpp"

namespace collectives {

/// Returns on any rank only after every rank of `comm` has called it. No data moves; the
/// library's messages are empty.
/// Algorithms: `vendor` (MPI_Barrier), `naive`, `binomial`, `dissemination`, `recursive_doubling`,
/// `k_dissemination`.
inline void barrier(MPI_Comm comm, selection alg = algorithm::automatic) {
  detail::run({collective::barrier, nullptr, 0, nullptr, 0, detail::element_type_of<unsigned char>(), nullptr,
               0, comm, alg});
}

}  // namespace collectives
