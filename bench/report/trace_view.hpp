// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Reading the library's traces (include/collectives/trace.hpp): merging per-rank files into one
// with aligned clocks (trace_merge), and drawing one call as a picture (collbench --draw).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace collbench {

/// One document per rank, as the library writes them → one document holding every rank's events,
/// times shifted onto world rank 0's clock and started at 0.
///
/// Clock alignment: processes on one host read the same CLOCK_MONOTONIC, so ranks whose `host`
/// record matches are offset 0 from each other, exactly; across hosts the offsets the library
/// measured when tracing started on each communicator (each rank to the communicator's rank 0,
/// by the smallest-round-trip ping-pong of bench/measure/start_sync.hpp, within half that round trip)
/// are chained to rank 0. A rank reached by neither is left unshifted and named in `warnings`.
nlohmann::json merge_traces(const std::vector<nlohmann::json>& ranks, std::vector<std::string>& warnings);

enum class time_axis {
  real,     ///< the measured times, µs from the call's start
  logical,  ///< steps: each send or receive one unit, a receive ending one unit after its send starts
};

/// Draws the one call (or, if several, the last one) of a merged trace as a PNG with gnuplot: a
/// space-time diagram (ranks as lanes, events as boxes, an arrow per message labelled with the
/// blocks it carries) and, when the blocks are known, the state after each receive (which rank
/// holds which block, and for reductions how many ranks' inputs it holds). Writes `png`; the
/// gnuplot script and its data go to `png` with .gp instead of .png, kept for editing. Returns
/// an empty string, or what went wrong.
std::string draw_call(const nlohmann::json& merged, const std::string& png, time_axis axis);

}  // namespace collbench
