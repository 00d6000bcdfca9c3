// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// SimGrid SMPI's own collectives as collbench rows (SMPI builds only, COLLBENCH_SMPI). SMPI
// reimplements the MPI libraries' algorithms and their selection logic: "ompi", "mpich",
// "mvapich2" and "impi" reproduce how Open MPI, MPICH, MVAPICH2 and Intel MPI choose an algorithm
// per call; the other names are single algorithms ("ring", "rdb", "lr", ...). A launch picks one
// per collective (--cfg=smpi/coll-selector, --cfg=smpi/<collective>); collbench switches among
// them per call through the functions SimGrid 3.32 exports for it (smpi_coll.hpp, not installed),
// so one simulated run holds the library's rows and every selector's, as the vendor:<name> rows
// of Open MPI and MPICH do on a real machine.

#include <collectives/algorithm.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace collbench::smpi {

/// SMPI's name for the collective whose algorithm can be chosen ("bcast", "allreduce", …);
/// empty where it has none (scan, exscan, gatherv, scatterv).
std::string_view collective_name(collectives::collective c);

/// SMPI's algorithms for `c`: the four selectors first, then its single algorithms; without
/// "default" (the launch's choice: the plain vendor row) and "automatic" (which runs them all).
std::vector<std::string> algorithms(collectives::collective c);

/// Makes the next MPI call of `c` run `name` (nothing else may run between: the choice is one
/// global of the simulator, shared by all simulated ranks, each of which sets it before its call).
void select(collectives::collective c, const std::string& name);

/// The launch's own choice for `c`: --cfg=smpi/<collective>, else --cfg=smpi/coll-selector.
std::string launch_choice(collectives::collective c);

}  // namespace collbench::smpi
