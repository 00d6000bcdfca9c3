// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The umbrella header of the collectives library: MPI collective algorithms built only on
// MPI_Send/MPI_Recv, compared with the MPI library's own collectives ("vendor").

#include "collectives/algorithm.hpp"
#include "collectives/allgather.hpp"
#include "collectives/allgatherv.hpp"
#include "collectives/allreduce.hpp"
#include "collectives/alltoall.hpp"
#include "collectives/barrier.hpp"
#include "collectives/alltoallv.hpp"
#include "collectives/broadcast.hpp"
#include "collectives/checks.hpp"
#include "collectives/datatype.hpp"
#include "collectives/eager.hpp"
#include "collectives/error.hpp"
#include "collectives/export.hpp"
#include "collectives/gather.hpp"
#include "collectives/gatherv.hpp"
#include "collectives/ops.hpp"
#include "collectives/reduce.hpp"
#include "collectives/reduce_scatter.hpp"
#include "collectives/scan.hpp"
#include "collectives/reduce_scatterv.hpp"
#include "collectives/scatter.hpp"
#include "collectives/scatterv.hpp"
#include "collectives/trace.hpp"
#include "collectives/tuning.hpp"
