// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The model column from the schedules themselves (src/schedule/price.hpp): a row's call recorded
// as the library runs it and priced on a platform: a SimGrid platform file as
// scripts/mpirun/simulate runs it (simgrid_platform.hpp), or the machine collbench --model measured
// (model.hpp).
//
// On a measured machine a message costs the ping-pong's one-way time at its size (message_times.hpp:
// u(m) for a send of the caller's untouched input, step::input, else t(m)); γ and δ at the call's
// size; E the run's; a message between two hosts α + mβ of the ping-pong between them (host_links.hpp).

#include <collectives/algorithm.hpp>
#include <collectives/eager.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/host_links.hpp"
#include "model/message_times.hpp"
#include "schedule/price.hpp"

namespace collbench {

namespace schedule = collectives::detail::schedule;

/// The platform of a call of `n` bytes (collbench's) of collective `c` on `p` ranks of the measured
/// machine `m`: every rank on one host, or, where the run's `hosts` are several of more than one
/// rank each (both ping-pongs measured), on those hosts, messages between them timed by the
/// ping-pong between two; E and the segments across hosts as the library takes them from `eager`
/// (kit/eager.hpp; none: every send waits). std::nullopt where the ranks' layout is neither
/// consecutive nor round-robin.
std::optional<schedule::platform> measured_platform(const cost_params& m, collectives::collective c, int p,
                                                    double n, const host_links* hosts = nullptr,
                                                    const collectives::eager_limits* eager = nullptr);

/// The textbook cost (its descriptor's, kit/descriptor.hpp) of the library algorithm whose schedule
/// prices the row `algorithm` on p ranks; empty for a row that has none.
std::string_view textbook_cost(collectives::collective c, std::string_view algorithm, int p);

/// Seconds of one call of a library algorithm (not vendor, not automatic): `call_count` elements as
/// the library call takes them (message::call_count), `elem_size`-byte elements, the v-variants'
/// blocks as collbench deals them (v_counts, `skew`). A vendor:<name> row that runs one of the
/// library's schedules (vendor_runs) is priced by it, with concurrent exchanges and sends that
/// return at once. std::nullopt for any other row.
std::optional<double> priced_seconds(collectives::collective c, std::string_view algorithm, int p,
                                     std::size_t call_count, std::size_t elem_size, int root, double skew,
                                     const schedule::platform& net);

}  // namespace collbench
