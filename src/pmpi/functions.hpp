// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The MPI functions the drop-in defines, and why a call may be forwarded to the MPI library.
// Adding a collective to the drop-in is one row here plus its description and entry point in
// entry_points.cpp (skeleton.hpp says what a description holds); the selection variable and the
// report read this table.

#include <array>
#include <string_view>

#include "collectives/algorithm.hpp"

namespace collectives::pmpi {

enum class mpi_function {
  bcast,
  scatter,
  gather,
  reduce,
  allgather,
  reduce_scatter_block,
  alltoall,
  allreduce,
  barrier,
  scan,
  exscan,
  gatherv,
  scatterv,
  allgatherv,
  alltoallv,
  reduce_scatter,
};

struct function_info {
  mpi_function id;
  std::string_view name;  ///< the C name, as the report prints it
  collective coll;        ///< the library's collective that serves it
};

inline constexpr std::array functions{
    function_info{mpi_function::bcast, "MPI_Bcast", collective::broadcast},
    function_info{mpi_function::scatter, "MPI_Scatter", collective::scatter},
    function_info{mpi_function::gather, "MPI_Gather", collective::gather},
    function_info{mpi_function::reduce, "MPI_Reduce", collective::reduce},
    function_info{mpi_function::allgather, "MPI_Allgather", collective::allgather},
    function_info{mpi_function::reduce_scatter_block, "MPI_Reduce_scatter_block", collective::reduce_scatter},
    function_info{mpi_function::alltoall, "MPI_Alltoall", collective::alltoall},
    function_info{mpi_function::allreduce, "MPI_Allreduce", collective::allreduce},
    function_info{mpi_function::barrier, "MPI_Barrier", collective::barrier},
    function_info{mpi_function::scan, "MPI_Scan", collective::scan},
    function_info{mpi_function::exscan, "MPI_Exscan", collective::exscan},
    function_info{mpi_function::gatherv, "MPI_Gatherv", collective::gatherv},
    function_info{mpi_function::scatterv, "MPI_Scatterv", collective::scatterv},
    function_info{mpi_function::allgatherv, "MPI_Allgatherv", collective::allgatherv},
    function_info{mpi_function::alltoallv, "MPI_Alltoallv", collective::alltoallv},
    function_info{mpi_function::reduce_scatter, "MPI_Reduce_scatter", collective::reduce_scatterv},
};

constexpr const function_info& info(mpi_function f) { return functions[static_cast<std::size_t>(f)]; }

/// Why a call went to the MPI library instead of the library's algorithms.
enum class forward_reason {
  vendor_chosen,      ///< COLLECTIVES_ALGORITHMS selected `vendor` for this collective
  intercommunicator,  ///< the library runs on intracommunicators only
  op,                 ///< a predefined op on a datatype MPI does not define it for (MPI decides)
  vendor_fastest,     ///< `fastest` selected, and the decision table measured vendor faster here
};

inline constexpr std::array<std::string_view, 4> forward_reason_names{"vendor chosen", "intercommunicator",
                                                                      "op", "vendor fastest"};

}  // namespace collectives::pmpi
