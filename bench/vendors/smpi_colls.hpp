// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// SimGrid SMPI's own collectives as collbench rows (SMPI builds only, COLLBENCH_SMPI). SMPI
// reimplements the MPI libraries' algorithms and their selection logic: "ompi", "mpich",
// "mvapich2" and "impi" reproduce how Open MPI, MPICH, MVAPICH2 and Intel MPI choose an algorithm
// per call; the other names are single algorithms ("ring", "rdb", "lr", ...). A launch picks one
// per collective (--cfg=smpi/coll-selector, --cfg=smpi/<collective>); collbench switches among
// them around each row's calls through the functions SimGrid 3.32 exports for it (smpi_coll.hpp,
// not installed), so one simulated run holds the library's rows and every selector's, as the
// vendor:<name> rows of Open MPI and MPICH do on a real machine. One more name is collbench's own:
// "ompi41", Open MPI 4.1's decision (ompi41.hpp), which picks one of SMPI's single algorithms for
// each size.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace collbench::smpi {

/// SMPI's name for the collective whose algorithm can be chosen ("bcast", "allreduce", …);
/// empty where it has none (scan, exscan, gatherv, scatterv).
std::string_view collective_name(collectives::collective c);

/// SMPI's algorithms for `c`: the four selectors first, then "ompi41" where ompi41_decision()
/// covers `c`, then its single algorithms; without "default" (the launch's choice: the plain vendor
/// row) and "automatic" (which runs them all).
std::vector<std::string> algorithms(collectives::collective c);

/// Why SimGrid 3.32's algorithm `name` for `c` cannot be measured on `p` ranks — it crashes, mixes
/// its messages with other calls', returns wrong results or refuses the process count (found by
/// running every one of them at 2–9, 12 and 16 ranks) — or empty where it can.
std::string unusable(collectives::collective c, std::string_view name, int p);

/// The SMPI algorithm that `name` (one of algorithms(c)) runs for a call of `count` elements of
/// `element_bytes` on `p` ranks: `name` itself, but for "ompi41" Open MPI 4.1's choice.
std::string algorithm_for_call(collectives::collective c, const std::string& name, int p, std::size_t count,
                               std::size_t element_bytes);

/// Makes every MPI call of `c` dispatched from now on, by any rank, run `name`: the choice is one
/// global of the simulator, shared by all simulated ranks, and read at each dispatch, nested ones
/// included. Change it only while no rank is inside a call (workload.hpp's smpi_selection).
void select(collectives::collective c, const std::string& name);

/// The launch's own choice for `c`: --cfg=smpi/<collective>, else --cfg=smpi/coll-selector.
std::string launch_choice(collectives::collective c);

}  // namespace collbench::smpi
