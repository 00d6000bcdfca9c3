// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What collbench reads and writes through the MPI tool interface (MPI_T control variables): the
// lookups vendor forcing uses (variants.cpp), and the shared-memory path in force.

#include <mpi.h>
#if COLLBENCH_SMPI
#include "measure/mpit_smpi.hpp"
#endif

#include <string>
#include <string_view>

namespace collbench {

/// The index of the control variable named `wanted`, or −1; its enumeration in `enumtype` and its
/// description in `description` if asked. Needs MPI_T initialised.
int find_cvar(std::string_view wanted, MPI_T_enum* enumtype, std::string* description = nullptr);

/// Reads (or writes, when `write` is set) an int control variable; false on failure.
bool access_cvar(int index, int* value, bool write);

/// How messages between ranks of one node are copied, as the MPI library's own parameter says.
struct shm_copy_info {
  std::string
      path;  ///< "single" (one copy: CMA, XPMEM, KNEM), "double" (through a shared segment) or "unknown"
  std::string mechanism;  ///< the parameter's value ("cma", "none", …); empty when unknown
  std::string source;     ///< where it was read, or why it could not be
};

/// Open MPI's btl_vader_single_copy_mechanism, read through MPI_T after MPI_Init: vader writes
/// back the mechanism it settled on (none when it had to give up on CMA), so this is the path in
/// force, whatever the environment asked for. Any other MPI library: "unknown", with the reason.
shm_copy_info shm_copy_in_force();

/// "single copy (cma)", "two copies (none)", or "unknown (<why>)": for headers.
std::string describe(const shm_copy_info& s);

}  // namespace collbench
