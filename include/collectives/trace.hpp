// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Trace mode: a record, per rank, of every library call (collective, the algorithm that ran,
// count) and of every event of its schedule (send, receive, local reduction, copy) with peer,
// bytes, the blocks the algorithm says a message carries, and start/end times. Each rank writes
// <prefix>.<world rank>.json in Chrome's trace-event format (Perfetto, chrome://tracing) at
// MPI_Finalize or trace_off; `trace_merge` (bench/) aligns ranks on different hosts by the clock
// offsets the first traced call on a communicator records. COLLECTIVES_TRACE=<prefix> starts it
// at start-up. Off, each hook costs one predictable branch; -DCOLLECTIVES_TRACE_HOOKS=OFF builds
// none (these functions then record nothing). The file's layout, times and cost: docs/tracing.md.

#include <string>
#include <string_view>

#include "collectives/export.hpp"

namespace collectives {

/// Records every later call of this process into <prefix>.<world rank>.json (directories in the
/// prefix must exist). Call it on every rank of the communicators you will use: the first
/// traced call on each communicator exchanges a few messages to measure clock offsets. A trace
/// already on is written out first.
COLLECTIVES_EXPORT void trace_to(std::string_view prefix);

/// Records every later call of this process in memory, to be taken with trace_take().
COLLECTIVES_EXPORT void trace_to_memory();

/// Stops recording and writes what is left (file mode). Nothing happens if tracing is off.
COLLECTIVES_EXPORT void trace_off();

/// True while calls are being recorded.
COLLECTIVES_EXPORT bool tracing();

/// Memory mode: this rank's events so far as one Chrome trace-event JSON document (the same
/// content as a file), and empties the buffer. Empty in file mode or when off.
COLLECTIVES_EXPORT std::string trace_take();

}  // namespace collectives
