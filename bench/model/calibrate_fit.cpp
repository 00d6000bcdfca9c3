// SPDX-License-Identifier: BSD-3-Clause
#include "model/calibrate_fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "model/simgrid_file.hpp"

namespace collbench {
namespace {

// Least squares on the error relative to `scale` (sizes span seven decades; the transfer is measured
// against the whole time it is part of), intercept and slope kept ≥ 0.
piece fit_affine(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& scale,
                 std::size_t from, std::size_t to) {
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = from; i <= to; ++i) {
    const double w = 1 / std::max(scale[i] * scale[i], 1e-30);
    sw += w, sx += w * x[i], sy += w * y[i], sxx += w * x[i] * x[i], sxy += w * x[i] * y[i];
  }
  piece p;
  const double det = sw * sxx - sx * sx;
  if (to > from && det > 0) {
    p.slope = (sw * sxy - sx * sy) / det;
    p.intercept = (sy - p.slope * sx) / sw;
  } else {
    p.intercept = sy / sw;
  }
  if (p.slope < 0) p.slope = 0, p.intercept = sy / sw;
  if (p.intercept < 0) p.intercept = 0, p.slope = sxx > 0 ? sxy / sxx : 0;
  for (std::size_t i = from; i <= to; ++i)
    p.worst = std::max(p.worst, std::abs(p.intercept + p.slope * x[i] - y[i]) / scale[i]);
  return p;
}

// Pieces over points [from, to]: each as long as its fit stays within the tolerance, and of at least
// `least_points` points (where the range has them), so that one noisy size does not make a piece; and
// a new one at every size of `breaks`.
std::vector<piece> fit_pieces(const std::vector<std::size_t>& bytes, const std::vector<double>& x,
                              const std::vector<double>& y, const std::vector<double>& scale,
                              std::size_t from, std::size_t to, double tolerance,
                              const std::vector<std::size_t>& breaks = {}) {
  constexpr std::size_t least_points = 3;
  auto forced = [&](std::size_t i) {
    return std::find(breaks.begin(), breaks.end(), bytes[i]) != breaks.end();
  };
  std::vector<piece> pieces;
  std::size_t start = from;
  while (start <= to) {
    std::size_t end = start;
    piece best = fit_affine(x, y, scale, start, end);
    while (end < to && !forced(end + 1)) {
      const piece longer = fit_affine(x, y, scale, start, end + 1);
      const bool room = end + 1 - start >= least_points && to - end >= least_points;
      if (longer.worst > tolerance && room) break;
      best = longer, ++end;
    }
    best.first = bytes[start], best.last = bytes[end];
    pieces.push_back(best);
    start = end + 1;
  }
  return pieces;
}

// A duplex stream slower than this fraction of the one-way bandwidth (per direction) gets a limiter.
constexpr double duplex_shortfall = 0.9;
// A piece whose time hardly grows with the size (latency alone) gets at most this bandwidth factor.
constexpr double largest_bw_factor = 100;

// The measurement as series over its sizes; points [0, eager_end) are eager.
struct series {
  const std::vector<point>& pts;
  std::vector<std::size_t> bytes;
  std::vector<double> x, send, recv, isend;
  std::size_t eager_end = 0;
};

series series_of(const measurement& m, bool rendezvous_streamed) {
  const std::size_t n = m.points.size();
  series s{m.points,
           std::vector<std::size_t>(n),
           std::vector<double>(n),
           std::vector<double>(n),
           std::vector<double>(n),
           std::vector<double>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    const point& p = m.points[i];
    s.bytes[i] = p.bytes, s.x[i] = static_cast<double>(p.bytes);
    s.send[i] = p.send, s.recv[i] = p.recv, s.isend[i] = p.isend;
    // A receiver that handles a stream's message in less time than MPI_Recv took after a pause
    // (woken, its sockets polled) costs at most that much per message: or never exceeds the stream.
    if (rendezvous_streamed && !p.rendezvous) s.recv[i] = std::min(s.recv[i], p.stream);
    if (!p.rendezvous) s.eager_end = i + 1;
  }
  return s;
}

// A rendezvous whose receiver, posting late, waits less than half the size's ping-pong found the
// bulk of the message there already (Open MPI's rendezvous carries its first fragment, nearly the
// eager limit, and a link at rest may move the rest at once). SMPI starts a message no earlier
// than its receive, but a detached send lets the sender go on as if the message had gone: such
// sizes are detached, up to the first one whose receiver waits for its data.
std::optional<std::size_t> detached_below(const series& s) {
  const auto& pts = s.pts;
  const std::size_t n = pts.size();
  if (s.eager_end == n || pts[s.eager_end].recv >= pts[s.eager_end].ping_pong / 2) return std::nullopt;
  for (std::size_t i = s.eager_end; i < n; ++i)
    if (pts[i].recv >= pts[i].ping_pong / 2) return pts[i].bytes;
  return pts[n - 1].bytes + 1;
}

void fit_overheads(fitted& f, const series& s, double tolerance) {
  const std::size_t n = s.pts.size();
  if (s.eager_end > 0) {
    f.os = fit_pieces(s.bytes, s.x, s.send, s.send, 0, s.eager_end - 1, tolerance);
    f.or_ = fit_pieces(s.bytes, s.x, s.recv, s.recv, 0, s.eager_end - 1, tolerance);
    f.ois = fit_pieces(s.bytes, s.x, s.isend, s.isend, 0, s.eager_end - 1, tolerance);
  }
  if (s.eager_end < n) {
    const auto large = fit_pieces(s.bytes, s.x, s.isend, s.isend, s.eager_end, n - 1, tolerance);
    f.ois.insert(f.ois.end(), large.begin(), large.end());
  }
}

double value(const std::vector<piece>& pieces, std::size_t s) {
  for (auto p = pieces.rbegin(); p != pieces.rend(); ++p)
    if (s >= p->first) return p->intercept + p->slope * static_cast<double>(s);
  return 0.0;
}

// What each size's transfer is priced from.
struct transfer_source {
  const series& s;
  bool rendezvous_streamed, exchanges;
  // An eager size whose stream takes longer per message than its ping-pong crosses a link at rest
  // faster than a busy one (a token bucket's burst, a switch's buffer; SMPI's link has none): its
  // transfer is priced from the stream, as a collective's back-to-back messages cross.
  bool streamed(std::size_t i) const {
    return rendezvous_streamed && (i >= s.eager_end || s.pts[i].stream > s.pts[i].ping_pong);
  }
  // The other eager sizes, on a busy link, are priced from the exchange (the duplex stream:
  // MPI_Isend and MPI_Recv, ois + transfer + or per message) where it was measured: a collective
  // sends most of its small messages both ways at once, and over TCP such a message crosses more
  // slowly than one alone; SMPI prices a message alike either way.
  bool exchanged(std::size_t i) const { return exchanges && i < s.eager_end && !streamed(i); }
};

// Where an overhead changes its piece, the protocol changed: the transfer's pieces break there too
// (where it is reckoned less that overhead: or everywhere, the sender's — ois for an exchange, os
// for a ping-pong — among the sizes not streamed), and where the streamed sizes start.
std::vector<std::size_t> transfer_breaks(const fitted& f, const transfer_source& from) {
  const series& s = from.s;
  std::vector<std::size_t> breaks;
  for (const piece& p : f.or_) breaks.push_back(p.first);
  for (const piece& p : f.exchanges ? f.ois : f.os) {
    const auto at = std::find(s.bytes.begin(), s.bytes.end(), p.first) - s.bytes.begin();
    if (!from.streamed(static_cast<std::size_t>(at))) breaks.push_back(p.first);
  }
  for (std::size_t i = 1; i < s.eager_end; ++i)
    if (from.streamed(i) != from.streamed(i - 1)) breaks.push_back(s.bytes[i]);
  return breaks;
}

void fit_transfer(fitted& f, const series& s, const transfer_source& from, double tolerance) {
  const auto& pts = s.pts;
  const std::size_t n = pts.size();
  for (std::size_t i = 0; i < s.eager_end && !f.first_streamed; ++i)
    if (from.streamed(i)) f.first_streamed = s.bytes[i];
  std::vector<double> xw(n), total(n), wire(n);
  for (std::size_t i = 0; i < n; ++i) {
    xw[i] = s.x[i] + smpi_envelope;
    total[i] = from.streamed(i) ? pts[i].stream : from.exchanged(i) ? pts[i].duplex : pts[i].ping_pong;
    // A message of a stream: the sender's os overlaps the transfer before it, the receiver's or
    // does not (from the first streamed size a transfer starts once its receive is posted).
    const std::size_t b = s.bytes[i];
    wire[i] = i >= s.eager_end    ? total[i]
              : from.streamed(i)  ? total[i] - value(f.or_, b)
              : from.exchanged(i) ? total[i] - value(f.ois, b) - value(f.or_, b)
                                  : total[i] - value(f.os, b) - value(f.or_, b);
    wire[i] = std::max(wire[i], 1e-9);
  }
  if (s.eager_end > 0)
    f.wire = fit_pieces(s.bytes, xw, wire, total, 0, s.eager_end - 1, tolerance, transfer_breaks(f, from));
  if (s.eager_end < n) {
    const auto large = fit_pieces(s.bytes, xw, wire, total, s.eager_end, n - 1, tolerance);
    f.wire.insert(f.wire.end(), large.begin(), large.end());
  }
}

// L: the first piece's latency; B: the last piece's bandwidth (pieces without a slope, latency
// alone, borrow the nearest larger piece's). Both ways at once: where each direction of the
// rendezvous sizes' duplex stream sustains clearly less than B, each node gets a limiter link
// (SimGrid's cluster limiter_link: one link both directions share) of twice that rate.
// Returns the last piece's slope.
double fit_link(fitted& f, const series& s, bool duplex_measured) {
  const std::size_t n = s.pts.size();
  f.latency = std::max(f.wire.front().intercept, 1e-9);
  double last_slope = 0;
  for (auto p = f.wire.rbegin(); p != f.wire.rend() && last_slope <= 0; ++p) last_slope = p->slope;
  if (last_slope <= 0)
    throw std::runtime_error("the measurement shows no cost per byte: measure larger sizes");
  f.bandwidth = 1 / last_slope;
  if (s.eager_end + 1 < n && duplex_measured) {
    std::vector<double> duplex(n), xw(n);
    for (std::size_t i = 0; i < n; ++i) duplex[i] = s.pts[i].duplex, xw[i] = s.x[i] + smpi_envelope;
    const piece both = fit_affine(xw, duplex, duplex, s.eager_end, n - 1);
    if (both.slope > 0 && 1 / both.slope < duplex_shortfall * f.bandwidth) f.limiter = 2 / both.slope;
  }
  return last_slope;
}

// Each transfer piece's intercept and slope against L and B; SMPI's factor applies above its
// threshold: the piece starting at `first` bytes prices payloads of first + 16 bytes and more.
void fit_factors(fitted& f, double last_slope) {
  double slope = last_slope;
  std::vector<double> slopes(f.wire.size());
  for (std::size_t i = f.wire.size(); i-- > 0;)
    slopes[i] = slope = f.wire[i].slope > 0 ? f.wire[i].slope : slope;
  for (std::size_t i = 0; i < f.wire.size(); ++i) {
    const std::size_t threshold =
        static_cast<std::size_t>(static_cast<double>(f.wire[i].first) + smpi_envelope) - 1;
    f.lat_factor.emplace_back(i == 0 ? 0 : threshold, f.wire[i].intercept / f.latency);
    f.bw_factor.emplace_back(i == 0 ? 0 : threshold,
                             std::min(1 / (slopes[i] * f.bandwidth), largest_bw_factor));
  }
}

}  // namespace

fitted fit(const measurement& m, double tolerance, bool rendezvous_streamed) {
  const series s = series_of(m, rendezvous_streamed);
  fitted f;
  f.eager_limit = m.eager_limit;
  f.detached_below = detached_below(s);
  fit_overheads(f, s, tolerance);
  const bool duplex_measured =
      std::all_of(m.points.begin(), m.points.end(), [](const point& p) { return p.duplex > 0; });
  f.exchanges = rendezvous_streamed && duplex_measured;
  fit_transfer(f, s, transfer_source{s, rendezvous_streamed, f.exchanges}, tolerance);
  fit_factors(f, fit_link(f, s, duplex_measured));
  return f;
}

// The piece starting at `first` bytes applies above first − 1.
std::string overhead_setting(const std::vector<piece>& pieces) {
  std::vector<std::string> parts;
  for (const piece& p : pieces)
    parts.push_back(fmt::format("{}:{:.6g}:{:.6g}", p.first == 0 ? 0 : p.first - 1, p.intercept, p.slope));
  return fmt::format("{}", fmt::join(parts, ";"));
}

std::string factor_setting(const std::vector<std::pair<std::size_t, double>>& factors) {
  std::vector<std::string> parts;
  for (const auto& [threshold, value] : factors) parts.push_back(fmt::format("{}:{:.6g}", threshold, value));
  return fmt::format("{}", fmt::join(parts, ";"));
}

}  // namespace collbench
