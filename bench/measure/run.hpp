// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collbench's run once its options are parsed: the description of the run (MPI library, host,
// timing, eager limits, the vendor's internals), the model and where the ranks sit, every
// collective measured at every size, and the rows written as a table, CSV or JSON.

#include <mpi.h>

#include "measure/options.hpp"

namespace collbench {

/// Collective over `comm`: every rank returns the same status; only rank 0 prints.
/// `forcing_set_here`: enable_vendor_forcing() set Open MPI's forcing before MPI_Init.
int run(MPI_Comm comm, const options& o, bool forcing_set_here);

}  // namespace collbench
