// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collbench --draw: one traced call per collective:algorithm, drawn as a PNG (bench/report/trace_view.hpp).

#include <mpi.h>

#include "measure/options.hpp"

namespace collbench {

/// Collective over `comm`. Returns the exit status (0: every picture drawn and every result
/// equal to vendor's; 1: something failed, said on stderr; 2: a bad --draw entry).
int draw_algorithms(MPI_Comm comm, const options& o);

}  // namespace collbench
