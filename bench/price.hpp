// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The model column from the schedules themselves (src/schedule/price.hpp): a row's call recorded
// as the library runs it and priced on a platform, a SimGrid platform file as
// scripts/mpirun/simulate runs it.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "schedule/price.hpp"

namespace collbench {

namespace schedule = collectives::detail::schedule;

/// The platform of a SimGrid platform file (scripts/mpirun/platforms/): its one <cluster>'s links
/// (bw, lat; a FAT_TREE's leaf size or a TORUS's dimensions; core ranks a host, loopback_bw and
/// loopback_lat on one host) and the SMPI settings that scripts/mpirun/simulate and the file set:
/// smpi/os and smpi/or (their value for small messages), the eager size below
/// smpi/send-is-detached-thresh (65536 unless the file sets it), eager messages moving at the match,
/// and no time for reductions and copies (smpi/simulate-computation:no). Throws collectives::error
/// on a file it cannot read.
schedule::platform simgrid_platform(const std::string& file);

/// Seconds of one call of a library algorithm (not vendor, not automatic): `call_count` elements as
/// the library call takes them (message::call_count), `elem_size`-byte elements, the v-variants'
/// blocks as collbench deals them (v_counts, `skew`). std::nullopt for a row that is no library
/// algorithm.
std::optional<double> priced_seconds(collectives::collective c, std::string_view algorithm, int p,
                                     std::size_t call_count, std::size_t elem_size, int root, double skew,
                                     const schedule::platform& net);

}  // namespace collbench
