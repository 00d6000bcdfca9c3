// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The α-β-γ-δ cost of every (collective, algorithm), in one table (cost_model.cpp): what --model
// prints beside the measured time, counting what the library's transport really does (blocking,
// ordered messages: an exchange is two messages one after the other; see cost_model.cpp). n is
// the message's `bytes` as collbench reports it (metrics.hpp: the whole p-block array for scatter,
// gather, allgather, reduce_scatter and alltoall), α the latency of one message, β seconds per
// byte of one blocking one-way message that forwards bytes the sender just received, reduced or
// copied, β_u the same for bytes the sender left untouched (its caller's input), γ seconds per
// byte reduced, δ seconds per byte copied locally.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

namespace collbench {

struct cost_params {
  double alpha;
  double beta;  ///< a message forwarding bytes the sender just wrote
  double gamma;
  double delta = 0;       ///< seconds per byte of a local copy: 1 / memcpy bandwidth
  double beta_clean = 0;  ///< a message of bytes the sender did not write in the call; 0: β
  /// The ping-pongs' one-way times (forward, clean). Where given, a message of m bytes costs the
  /// time measured at m (interpolated between the measured sizes) instead of α + mβ.
  std::vector<pingpong_point> forward = {}, clean = {};
  /// The times of a memcpy and of a reduction by size. Where given, γ and δ are the per-byte
  /// times measured at the call's size n (interpolated), which decides whether its buffers sit
  /// in the caches or in memory.
  std::vector<pingpong_point> copy = {}, reduce = {};
  /// The eager size E in bytes (collectives/eager.hpp): an exchange of at most E bytes sends on
  /// both sides first and costs one message, not two; 0: every exchange is ordered.
  double eager = 0;
  /// An eager exchange's time by size, up to E (model.hpp: machine::exchange); empty: unmeasured.
  std::vector<pingpong_point> exchange = {};
};

/// Seconds of one blocking message of `bytes` bytes: t(m) (forward) or u(m) (clean, untouched),
/// sent in a call whose buffers on all ranks together span `footprint` bytes (0: as the
/// ping-pong's own). With measured points the message moves at the ping-pong's time per byte where
/// the ping-pong touches as many bytes as the call (bench/cost_model.cpp says when).
double message_seconds(const cost_params& m, double bytes, bool clean, double footprint = 0);

/// Seconds per byte of a copy or a reduction of `n` bytes: interpolated between the measured sizes
/// (model.hpp: machine::copy, machine::reduce), or `otherwise` without them.
double measured_per_byte(const std::vector<pingpong_point>& measured, double n, double otherwise);

/// The bytes a call of `n` bytes (as collbench counts them, metrics.hpp) touches on p ranks
/// together: every rank's send and receive buffers, scratch left out.
double call_footprint(collectives::collective c, int p, double n);

/// One call as the formulas see it.
struct call_shape {
  int p;              ///< ranks
  int root;           ///< the root, for the rooted collectives
  double n;           ///< the message's `bytes`
  std::size_t count;  ///< its elements (the `count` column)
};

/// The formula as text, e.g. "R(2(p−1))·t(n/p) + (p−1)/p·nγ", or empty when the table has
/// none. `algorithm` is a row label: a library algorithm, or vendor:<name> for the few internals
/// of Open MPI that run the library's algorithm of the same name (with a note where Open MPI
/// switches to another algorithm, at `p` ranks or for few elements); vendor and the other
/// internals have none.
/// With `textbook`, a library algorithm's textbook cost (its descriptor's) instead of its line.
std::string cost_formula(collectives::collective c, std::string_view algorithm, int p, bool textbook = false);

/// The library algorithm whose schedule the vendor internal `name` (a row's vendor:<name>, without
/// the prefix) runs for a call of `count` elements on p ranks, where Open MPI switches included;
/// empty when it runs none of them.
std::string_view vendor_runs(collectives::collective c, std::string_view name, int p, std::size_t count);

/// Predicted seconds for `call`, or std::nullopt when the table has no formula.
std::optional<double> predict_seconds(collectives::collective c, std::string_view algorithm,
                                      const call_shape& call, const cost_params& m);

/// Seconds on the critical path of a series of exchange steps as transport::exchange runs them,
/// every rank starting at 0: step i is a shift by shifts[i] (to = rank + k, from = rank − k, mod p;
/// k = p/2 is a pairing) of bytes[i] bytes each way, every message a blocking send that completes
/// when its receiver has it: t(m), or u(m) when `clean` (every message sends the caller's input).
/// Exposed for the tests, which check the ring's closed form.
double shift_steps_seconds(int p, const std::vector<int>& shifts, const std::vector<double>& bytes,
                           const cost_params& m, bool clean = false, double footprint = 0);

/// The library's pipeline segment in bytes, as src/core/segment.cpp reads it:
/// COLLECTIVES_PIPELINE_SEGMENT_BYTES, a positive integer, else `unset` (the chain's 64 KiB; the
/// binary trees' is 32 KiB). (A value the library rejects stops the run at the first pipelined
/// call; here it counts as unset.)
std::size_t pipeline_segment_bytes(std::size_t unset = 65536);

}  // namespace collbench
