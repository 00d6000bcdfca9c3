// SPDX-License-Identifier: BSD-3-Clause
#include "model/message_times.hpp"

#include <algorithm>

namespace collbench {
namespace {

using collectives::collective;

// From this size up a ping-pong's time is mostly per byte (on one node its latency is under a tenth
// of it), so its time per byte applies to a message of another size (message_seconds).
constexpr double bandwidth_bound_bytes = 256 * 1024;

// Straight lines between the measured sizes; below the first, its time (or its time per byte,
// `proportional`); above the last, the last segment's slope.
double interpolate(const std::vector<pingpong_point>& measured, double bytes, bool proportional) {
  if (proportional && bytes < static_cast<double>(measured.front().bytes))
    return measured.front().seconds * bytes / static_cast<double>(measured.front().bytes);
  const auto above = std::find_if(measured.begin() + 1, measured.end() - 1, [&](const pingpong_point& q) {
    return static_cast<double>(q.bytes) >= bytes;
  });
  const pingpong_point &lo = *(above - 1), &hi = *above;
  if (bytes <= static_cast<double>(lo.bytes)) return lo.seconds;
  return lo.seconds + (bytes - static_cast<double>(lo.bytes)) * (hi.seconds - lo.seconds) /
                          static_cast<double>(hi.bytes - lo.bytes);
}

}  // namespace

double measured_per_byte(const std::vector<pingpong_point>& measured, double n, double otherwise) {
  if (measured.size() < 2 || n <= 0) return otherwise;
  return interpolate(measured, n, true) / n;
}

double message_seconds(const cost_params& m, double bytes, bool clean, double footprint) {
  const std::vector<pingpong_point>& measured = clean ? m.clean : m.forward;
  if (measured.size() < 2) return m.alpha + bytes * (clean && m.beta_clean > 0 ? m.beta_clean : m.beta);
  const double own = interpolate(measured, bytes, false);
  // The ping-pong that touches as many bytes as the call: the clean one has two buffers of its
  // message on each of its two ranks, the forward one a single one.
  const double reference = footprint / (clean ? 4 : 2);
  if (reference <= 0) return own;
  const double at_footprint = bytes * interpolate(measured, reference, false) / reference;
  // A call that touches more moves its bytes at least as slowly as that ping-pong does (its own
  // time stays the floor: a small message in a large call still pays its latency).
  if (reference >= bytes) return std::max(own, at_footprint);
  // One that touches less moves them as fast as that ping-pong, where the ping-pong's time is
  // mostly per byte; below, its time per byte would count a latency for every reference bytes.
  return reference >= bandwidth_bound_bytes ? at_footprint : own;
}

double call_footprint(collective c, int p, double n) {
  using enum collective;
  if (c == barrier) return 0;
  if (c == broadcast) return p * n;
  // The root's p blocks, and one block on every rank.
  if (c == scatter || c == gather || c == scatterv || c == gatherv) return 2 * n;
  if (c == allreduce || c == scan || c == exscan || c == alltoall || c == alltoallv) return 2 * p * n;
  // reduce: every rank's vector, and the root's result; allgather(v), reduce_scatter(v): one block on
  // every rank, and p blocks on every rank.
  return (p + 1) * n;
}

}  // namespace collbench
