// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// A SimGrid platform file read as a platform on which recorded schedules are priced
// (src/schedule/price.hpp): the numbers scripts/mpirun/simulate runs SMPI with.

#include <string>

#include "schedule/price.hpp"

namespace collbench {

namespace schedule = collectives::detail::schedule;

/// The platform of a SimGrid platform file (scripts/mpirun/platforms/): its one <cluster>'s links
/// (bw, lat; a FAT_TREE's leaf size or a TORUS's dimensions; core ranks a host, loopback_bw and
/// loopback_lat on one host) and the SMPI settings that scripts/mpirun/simulate and the file set:
/// smpi/os and smpi/or (their value for small messages), smpi/lat-factor and smpi/bw-factor (by
/// the message's size, as SMPI reads them), network/weight-S (8775, the SMPI network
/// model's, unless the file sets it), the eager size below the hosts' collectives/eager-limit (a
/// calibrated platform's), else below smpi/send-is-detached-thresh (65536 unless the file sets it;
/// between hosts too, with exchanges above it in segments of E), eager
/// messages moving at the match, and no time for reductions and copies
/// (smpi/simulate-computation:no). Read by simgrid_file.hpp. Throws collectives::error on a file
/// it cannot read.
schedule::platform simgrid_platform(const std::string& file);

}  // namespace collbench
