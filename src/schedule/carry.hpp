// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The replay that carries the data: every rank of one call runs the library's own algorithm code
// together, each rank a fiber (fiber.hpp) of this thread, through the recorder (record_into with a
// courier): a send hands its bytes over at once, as MPI's blocking send may (the buffer is
// reusable when it returns, so what arrives is what the buffer held at the send, whatever the
// buffering); a receive takes the next message of its channel (communicator, sender, receiver),
// as MPI matches the library's messages (one tag, no wildcard), or yields until it comes. With no
// wildcard the data cannot depend on the order the fibers run in, so one run decides the result of
// the call under every interleaving and every buffering. Whether the call can deadlock without
// buffering is the checker's (check.hpp) to say: here every send completes.
//
// Why fibers rather than threads or a symbolic model: the receive must get what its peer really
// sent, so the p ranks of a call must run at once; p threads per call would cost their creation
// and a kernel switch per blocked receive, a fiber switch costs a few instructions; a model of the
// algorithms would prove the model. The values carried are the witnesses' (witness.hpp).

#include <cstdint>
#include <string>

#include "kit/call.hpp"
#include "schedule/schedule.hpp"

namespace collectives::detail::schedule {

struct carried {
  bool ok = true;
  /// What went wrong: an algorithm that threw, a message of the wrong size, a receive whose
  /// message never comes, messages never received; empty when ok. Wrong data is `data`'s to say.
  std::string problem;
  std::uint64_t messages = 0;  ///< delivered
  std::uint64_t bytes = 0;     ///< in them
  bool corrupted = false;      ///< a message was changed in flight (carry's `corrupt`)
};

/// Runs every rank of `spec` together on this thread: `data` fills each rank's buffers before its
/// call and reads them after it (on the fiber of that rank), `op` reduces (null: an unsigned sum),
/// `run` replaces the registry's algorithm (the planted bugs of the tests). `corrupt` > 0 (tests):
/// the first non-empty message from the corrupt-th on arrives with its first byte's bits flipped.
carried carry(const call_spec& spec, rank_data& data, const reduction* op = nullptr,
              algorithm_fn run = nullptr, std::uint64_t corrupt = 0);

}  // namespace collectives::detail::schedule
