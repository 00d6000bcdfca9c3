// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// SimGrid SMPI (3.32) declares no MPI tool interface. These stand-ins fail every call, as an MPI
// library without MPI_T would, so that collbench's MPI_T code compiles unchanged and takes its
// "not available" paths; SMPI's own algorithms are offered through smpi_colls.hpp instead.

#include <mpi.h>

using MPI_T_enum = struct collbench_mpit_enum*;
using MPI_T_cvar_handle = struct collbench_mpit_cvar*;
#define MPI_T_ENUM_NULL (static_cast<MPI_T_enum>(nullptr))
#define MPI_T_CVAR_HANDLE_NULL (static_cast<MPI_T_cvar_handle>(nullptr))

inline int MPI_T_init_thread(int, int*) { return MPI_T_ERR_CANNOT_INIT; }
inline int MPI_T_finalize() { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_cvar_get_num(int*) { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_cvar_get_info(int, char*, int*, int*, MPI_Datatype*, MPI_T_enum*, char*, int*, int*, int*) {
  return MPI_T_ERR_NOT_INITIALIZED;
}
inline int MPI_T_cvar_handle_alloc(int, void*, MPI_T_cvar_handle*, int*) { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_cvar_handle_free(MPI_T_cvar_handle*) { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_cvar_read(MPI_T_cvar_handle, void*) { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_cvar_write(MPI_T_cvar_handle, const void*) { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_enum_get_info(MPI_T_enum, int*, char*, int*) { return MPI_T_ERR_NOT_INITIALIZED; }
inline int MPI_T_enum_get_item(MPI_T_enum, int, int*, char*, int*) { return MPI_T_ERR_NOT_INITIALIZED; }
