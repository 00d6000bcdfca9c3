// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The checker of recorded schedules: replays the p schedules of one call together, as MPI would
// run them, and says whether every send meets a receive of its size and every rank finishes.
//
// Messages match as MPI matches the library's (one tag, no wildcard, blocking calls): the k-th
// receive rank d posts from rank s on a communicator takes the k-th message s sent d on it
// (non-overtaking). With no wildcard the outcome cannot depend on timing: whichever order the ranks
// run in, the same sends meet the same receives and the same ranks block, so one replay decides
// the call for every interleaving. Two buffering models:
//   - none: every send waits until its receive is posted (MPI_Ssend; the library's E = 0);
//   - eager with E: a send of at most E bytes completes at once, the message waiting at the
//     receiver; a larger one waits for its receive (the rendezvous protocol).
// A deadlock is reported with the ranks that wait forever, the step each waits at and the cycle
// of ranks waiting on each other (or the finished rank one waits for).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace collectives::detail::schedule {

struct model {
  enum class buffering { none, eager } kind = buffering::none;
  std::size_t eager_bytes = 0;  ///< E, for eager (0: this pair of ranks has no buffering)
  /// Where E differs between ranks on one host and ranks on two: each rank's host, and E across.
  std::vector<int> host_of;
  std::size_t eager_across = 0;

  static model none() { return {}; }
  static model eager(std::size_t e) { return {buffering::eager, e, {}, 0}; }
  /// Eager as `spec`'s transport assumes it: E on a host, and across hosts where the spec sets it.
  static model eager_as(const call_spec& spec);
  /// E of a message from `from` to `to`.
  std::size_t eager_between(int from, int to) const {
    return host_of.empty() || host_of[static_cast<std::size_t>(from)] == host_of[static_cast<std::size_t>(to)]
               ? eager_bytes
               : eager_across;
  }
};

/// "no buffering (every send waits for its receive)" or "eager up to E = … B".
std::string describe(const model& m);

struct verdict {
  bool ok = true;
  /// What went wrong, in words (several lines for a deadlock); empty when ok.
  std::string problem;
  std::uint64_t messages = 0;  ///< messages matched
  /// A deadlock: the ranks that wait forever, and the cycle among them (its first rank repeated
  /// at the end; empty when the waits end at a finished rank).
  std::vector<int> waiting, cycle;
};

/// Replays one call's schedules, `ranks[r]` being rank r's.
verdict replay(std::span<const rank_schedule> ranks, const model& m);

/// Records every rank of `spec` (messages only; record_call) and replays them under `m`; an
/// algorithm that throws fails the call with its message.
verdict check(const call_spec& spec, const model& m);

}  // namespace collectives::detail::schedule
