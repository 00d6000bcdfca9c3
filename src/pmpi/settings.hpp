// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What the environment asks of the drop-in: COLLECTIVES_ALGORITHMS (which algorithm serves each
// collective, or `fastest`: per call the MPI library or the library, whichever the decision table
// of COLLECTIVES_TUNING measured faster) and COLLECTIVES_MPI_REPORT (where the report goes). Read
// once per process.

#include <optional>
#include <string>
#include <vector>

#include "collectives/algorithm.hpp"

namespace collectives::pmpi {

struct settings {
  /// Per collective (indexed by `collective`): automatic, vendor (= forward) or an algorithm, with
  /// the radix its entry names (0: none).
  std::vector<selection> chosen;
  /// Per collective: `fastest` (then `chosen` is automatic: what serves where vendor does not).
  std::vector<bool> fastest;
  std::string fastest_entry;    ///< the first entry that asked for `fastest`, for messages
  std::string algorithms_text;  ///< the variable as given, for the report's header
  /// Empty when the selection is valid; otherwise the one line every rank prints before the job
  /// stops.
  std::string problem;
  /// COLLECTIVES_ALGORITHMS=help: list the choices and stop (exit_with_help).
  bool help = false;
  /// Unset: no report; "-" for stderr (COLLECTIVES_MPI_REPORT=1), otherwise a file name.
  std::optional<std::string> report_to;

  selection for_collective(collective c) const { return chosen[static_cast<std::size_t>(c)]; }
  bool is_fastest(collective c) const { return fastest[static_cast<std::size_t>(c)]; }
};

/// Parses a COLLECTIVES_ALGORITHMS value (comma-separated `collective=algorithm`, `*=algorithm`;
/// the algorithm may be `fastest`, and a radix-k one `algorithm:k`), or `help`.
settings parse_settings(const char* algorithms, const char* report);

/// A radix above MPI_COMM_WORLD's `world_size` ranks (at least 2) in the selection: the line every
/// rank prints before the job stops; "" when there is none.
std::string radix_above_world(const settings& s, int world_size);

/// For a selection with `fastest`: "" when the decision table it needs is in force (loading
/// COLLECTIVES_TUNING now if it was not), else the one line every rank prints before the job stops
/// (the variable is unset, or the table does not load). "" for any other selection.
std::string fastest_problem(const settings& s);

/// What COLLECTIVES_ALGORITHMS=help prints: the syntax, then one line per collective,
/// `<collective>: <algorithm> ...` in algorithms_for() order (as `collbench --list` prints them).
std::string help_text();

/// COLLECTIVES_ALGORITHMS=help, called right after MPI_Init: rank 0 of MPI_COMM_WORLD prints
/// help_text() on stdout, then every rank finalizes MPI and exits with status 0 — the program does
/// not run, as with LD_DEBUG=help: a user asking what to write wants the list, not a run with
/// some default they did not choose.
[[noreturn]] void exit_with_help();

/// The process's settings, parsed from the environment on first use.
const settings& current_settings();

}  // namespace collectives::pmpi
