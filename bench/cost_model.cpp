// SPDX-License-Identifier: BSD-3-Clause
// The cost table: one line per (collective, algorithm), counting what the library's transport
// really does, so that measured ÷ model near 1 means an algorithm runs at our transport's floor,
// and a ratio well above 1 points at time the schedule loses somewhere. When an algorithm's
// schedule changes, change its line here; bench.unit fails for an algorithm of algorithms_for()
// without a line.
//
// The transport (src/core/transport.cpp) moves every message with a blocking MPI_Send matched by
// a blocking MPI_Recv, and a message larger than the eager limit completes only when its receiver
// has it (on one node: when the receiver has copied it). How fast that copy runs depends on where
// the bytes sit: Open MPI's single copy (CMA) has the receiver read the sender's memory, which is
// about twice as fast for bytes the sender left untouched as for bytes it has just written and
// still holds dirty in its own core's cache, and both slow down once a call's buffers no longer
// fit in the caches. So there are two messages, each priced by a ping-pong that moves its kind of
// bytes (model.hpp), one way = half the round trip, which is exactly one such message:
//   t(m)           a message forwarding bytes the sender just received, reduced or copied (the
//                  ping-pong that bounces one buffer);
//   u(m)           a message of bytes the sender did not write in the call: its caller's input, a
//                  broadcast root's buffer (the ping-pong that sends from a buffer it never writes).
//                  In collbench every call sends the same untouched inputs, as applications do;
// both are the ping-pongs' times measured at m bytes (1 B, 2 B, … ×2 up to the run's largest
// message), interpolated linearly between the measured sizes: the eager and rendezvous
// protocols, and caches and memory, each get the time they take. Where the bytes sit depends on
// the whole call, not on one message: a message moves at the time per byte of the ping-pong that
// touches as many bytes as the call does (call_footprint: every rank's buffers; the clean
// ping-pong touches 4m, the forward one 2m), never faster than its own ping-pong when the call
// touches more (message_seconds): where the ping-pongs fall off a cliff as their buffers leave
// the last-level cache, a call's messages fall with them at the call's own footprint.
// With no points (the tests, a file from before), t(m) = α + mβ and u(m) = α + mβ_u, the
// ping-pongs' least-squares lines.
// Built from them:
//   2t(m)          an exchange with a pairing (rank ↔ peer): one side sends while the other
//                  receives, then they swap — not the t(m) of a concurrent send-receive. Which
//                  side goes first does not matter: the pair is done 2t(m) after both arrive;
//   R(S)·t(m)      S steps of a ring (shift by 1: to = rank + 1, from = rank − 1), ordered along
//                  the cycle (transport::sends_first: even positions send first): 2 messages a
//                  step when p is even; when p is odd the cycle has two adjacent senders, one of
//                  which waits a message longer, and the delay comes back every (p−1)/2 steps:
//                  R(S) = 2S + ⌈2S/(p−1)⌉ (R(S) = 2S for even p);
//   X(k₁…; m₁…)    any other series of shifts by k₁, k₂, … of m₁, m₂, … bytes (pairwise, Bruck,
//                  dissemination): replayed cycle by cycle in the transport's order
//                  (shift_steps_seconds below); 2t(m) a step for even cycles, up to 3t(m) for odd;
//                  Xᵤ when every message sends the caller's input (pairwise), priced by u(m);
//   Σᵢ t(n/2ⁱ)     the halving series of recursive halving, Rabenseifner and the binomial trees;
//   γ              per byte reduced (the library's kernel), δ per byte copied locally
//                  (1 / memcpy bandwidth): counted where a copy sits on the critical path (a root's
//                  own block, the first fill of an accumulator, Bruck's rotations).
// Below the eager size E (collectives/eager.hpp, cost_params::eager) both partners of an exchange
// send first: the pair is done one message after both arrive, not two. So wherever the messages
// of an exchange are at most E bytes, each 2t(m) or 2u(m) above costs one t(m) or u(m), and every
// step of R(S) and X one message; the formulas' texts keep the ordered count, the numbers follow E.
//
// Each line also keeps the textbook cost (a concurrent send-receive per exchange, copies left out),
// its text the algorithm's descriptor's (core/descriptor.hpp). The algorithms' header comments
// state both: "Cost:" the textbook cost, as the literature and MPICH give it, and "Transport:" this
// table's line, what our transport spends. The vendor internals that run one of the library's
// schedules (vendor_lines) are priced by its textbook cost, since the MPI library exchanges with a
// concurrent send-receive (with α and β, the forward ping-pong's line), or by the line itself where
// it has no exchange (the trees).
//
// n = collbench's `bytes` (the whole array where metrics.hpp says so; the files' own n is often one
// block, n/p). ⌈log p⌉ is written log p. The power-of-two algorithms (recursive doubling and
// halving, Rabenseifner) run their core on p′ = the largest power of two ≤ p and fold the other
// ranks in and out; their lines give the core at p′ plus the fold's cost from the file's header.

#include "cost_model.hpp"

#include <fmt/format.h>
#include <mpi.h>  // OMPI_MAJOR_VERSION: the vendor lines describe Open MPI's internals

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/registry.hpp"  // the textbook costs
#include "core/segment.hpp"   // the segments' defaults, as the library has them

namespace collbench {
namespace {

using collectives::collective;

struct cost_input {
  double p;
  int ip;              ///< p as an integer
  double lg;           ///< ⌈log₂ p⌉
  double q;            ///< p′: the largest power of two ≤ p
  double lq;           ///< log₂ p′
  bool fold;           ///< p is not a power of two
  bool root_sits_out;  ///< the root is one of the ranks the fold sets aside (pof2_fold.hpp)
  double n;
  double footprint;   ///< the bytes the call touches on all ranks (call_footprint)
  double a, b, g, d;  ///< α, β (forward), γ, δ
  int root;
  const cost_params* m;  ///< t(m) and u(m)
};

struct cost_entry {
  collective coll;
  std::string_view algorithm;
  std::string_view formula;  ///< on our transport
  double (*seconds)(const cost_input&);
  /// With a concurrent send-receive, copies left out, as the algorithm's descriptor's cost text says
  /// (core/descriptor.hpp); none: the line above.
  double (*textbook_seconds)(const cost_input&) = nullptr;
};

// One blocking message of m bytes: t(m) forwards bytes the sender just wrote (received, reduced,
// copied), u(m) sends bytes it left untouched (its caller's input, a broadcast root's buffer).
double t(const cost_input& x, double m) { return message_seconds(*x.m, m, false, x.footprint); }
double u(const cost_input& x, double m) { return message_seconds(*x.m, m, true, x.footprint); }

// An exchange of m bytes each way sends on both sides first (one message time) when m ≤ E.
bool eager(const cost_input& x, double m) { return x.m->eager > 0 && m <= x.m->eager; }
// The messages one exchange step of m bytes costs: 1 below E, else 2 (one side, then the other).
double per_exchange(const cost_input& x, double m) { return eager(x, m) ? 1 : 2; }

// S steps of the ring: R(S)·t(m); S·t(m) when m ≤ E.
double ring(const cost_input& x, int steps, double m) {
  if (steps <= 0 || x.ip < 2) return 0;
  if (eager(x, m)) return steps * t(x, m);
  double messages = 2.0 * steps;
  if (x.ip % 2 == 1) messages += std::ceil(2.0 * steps / (x.ip - 1));
  return messages * t(x, m);
}
// The same when the first step sends the caller's input: 2u(m) + (R(S) − 2)·t(m).
double ring_from_input(const cost_input& x, int steps, double m) {
  if (steps <= 0 || x.ip < 2) return 0;
  return ring(x, steps, m) - per_exchange(x, m) * (t(x, m) - u(x, m));
}

double shifts(const cost_input& x, const std::vector<int>& k, const std::vector<double>& m,
              bool clean = false) {
  return shift_steps_seconds(x.ip, k, m, *x.m, clean, x.footprint);
}

// The doubling distances 1, 2, 4, … < p.
std::vector<int> doublings(int p) {
  std::vector<int> d;
  for (int k = 1; k < p; k *= 2) d.push_back(k);
  return d;
}

// Σᵢ t(n/2ⁱ), i = first…last: the halving series of recursive halving, Rabenseifner and the
// binomial trees' subtrees. `exchanged`: each term an exchange both ways, 2t(n/2ⁱ), or t(n/2ⁱ)
// when n/2ⁱ ≤ E.
double halves(const cost_input& x, double first, double last, bool exchanged = false) {
  double s = 0;
  for (double i = first; i <= last; ++i) {
    const double m = x.n / std::exp2(i);
    s += (exchanged ? per_exchange(x, m) : 1) * t(x, m);
  }
  return s;
}

// The chain's segments (64 KiB unless set), or the binary trees' (32 KiB unless set).
double segments(const cost_input& x, std::size_t unset = collectives::detail::chain_segment_bytes) {
  return std::max(1.0, std::ceil(x.n / static_cast<double>(pipeline_segment_bytes(unset))));
}

// An inner rank of the chain receives a segment, then sends it on, and cannot take the next one
// while its send waits for the right neighbour: a segment passes every 2t, not every t. At p = 2
// the root sends its own buffer, segment after segment.
double pipeline_seconds(const cost_input& x) {
  const double s = segments(x);
  return x.p == 2 ? s * u(x, x.n / s) : (2 * s + x.p - 3) * t(x, x.n / s);
}
double pipeline_textbook(const cost_input& x) {
  const double s = segments(x);
  return (x.p - 2 + s) * (x.a + x.n / s * x.b);
}

// An inner rank of the binary tree receives a segment, then sends it to two children before it
// takes the next: a segment passes every 3t. The first reaches the deepest rank after at most two
// message times per level (a second child waits for its sibling's). p = 2 is the pipeline's
// S·u(n/S); at p = 3 the root sends each of its untouched segments twice.
double pipelined_tree_seconds(const cost_input& x) {
  const double s = segments(x, collectives::detail::tree_segment_bytes);
  if (x.p == 2) return s * u(x, x.n / s);
  if (x.p == 3) return 2 * s * u(x, x.n / s);
  return (2 * std::floor(std::log2(x.p)) + 3 * (s - 1)) * t(x, x.n / s);
}

// The same tree upwards: an inner rank receives two children's segments, folds each into its sum
// and sends that on, a segment every 3t + 2(n/S)γ. p = 2: the leaf sends its untouched input; p = 3:
// both leaves do, and the root folds twice.
double pipelined_tree_reduce(const cost_input& x) {
  const double s = segments(x, collectives::detail::tree_segment_bytes);
  if (x.p == 2) return s * u(x, x.n / s) + x.n * x.g;
  if (x.p == 3) return 2 * s * u(x, x.n / s) + 2 * x.n * x.g;
  const double depth = std::floor(std::log2(x.p));
  return (2 * depth + 3 * (s - 1)) * t(x, x.n / s) + 2 * (depth + s - 1) * x.n / s * x.g;
}

// Lines shared by several collectives.
// The root's sends are untouched bytes; every later hop forwards what it received.
double binomial_broadcast(const cost_input& x) { return u(x, x.n) + (x.lg - 1) * t(x, x.n); }
// Root 0 (collbench's default): every child lies above, so each result is formed where the child's
// landed, the first in recv at the root; no copies. A leaf sends its input, an inner rank its sum.
double binomial_reduce(const cost_input& x) { return u(x, x.n) + (x.lg - 1) * t(x, x.n) + x.lg * x.n * x.g; }
double ring_allgather(const cost_input& x) { return x.n / x.p * x.d + ring(x, x.ip - 1, x.n / x.p); }
double ring_allreduce(const cost_input& x) {
  return ring_from_input(x, 2 * (x.ip - 1), x.n / x.p) + (x.p - 1) / x.p * x.n * x.g;
}
double ring_textbook(const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }
double ring_allreduce_textbook(const cost_input& x) {
  return 2 * (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (2 * x.b + x.g);
}
double pairwise_shifts(const cost_input& x, double m) {
  std::vector<int> k;
  for (int i = 1; i < x.ip; ++i) k.push_back(i);
  return shifts(x, k, std::vector<double>(k.size(), m), true);
}
double bruck_allgather(const cost_input& x) {
  // Shifts by −d of min(d, p − d) blocks, then the rotation of up to the whole result.
  std::vector<int> k;
  std::vector<double> m;
  for (int d : doublings(x.ip)) {
    k.push_back(-d);
    m.push_back(std::min(d, x.ip - d) * x.n / x.p);
  }
  // The rotation (rotate_bytes) moves the whole result and parks the shorter part, at most ⌊p/2⌋
  // blocks, on the way.
  return x.n / x.p * x.d + shifts(x, k, m) + (x.n + std::floor(x.p / 2) * x.n / x.p) * x.d;
}
// Runs of 1, 2, 4, … parts of n/p′, each swapped both ways.
// The exchanges of the recursive doubling among p′ ranks: 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1).
double doubling_exchanges(const cost_input& x) {
  double s = 0;
  for (double i = 0; i < x.lq; ++i) s += per_exchange(x, std::exp2(i) * x.n / x.q) * t(x, std::exp2(i) * x.n / x.q);
  return s;
}
double rd_allgather(const cost_input& x) {
  return x.n / x.p * x.d + doubling_exchanges(x) + (x.fold ? u(x, x.n / x.p) + t(x, x.n) : 0);
}
double rd_allgather_textbook(const cost_input& x) {
  return x.lq * x.a + (x.q - 1) / x.q * x.n * x.b + (x.fold ? 2 * x.a + (x.n / x.p + x.n) * x.b : 0);
}
double naive_allgather(const cost_input& x) {
  return x.n / x.p * x.d + (x.p - 1) * u(x, x.n / x.p) + (x.p - 1) * t(x, x.n);
}
double naive_allgather_textbook(const cost_input& x) {
  return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b;
}
double naive_reduce_scatter(const cost_input& x) {
  return (x.p - 1) * (u(x, x.n) + x.n * x.g) + x.n / x.p * x.d + (x.p - 1) * t(x, x.n / x.p);
}
double naive_reduce_scatter_textbook(const cost_input& x) {
  return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b + (x.p - 1) * x.n * x.g;
}
double ring_reduce_scatter(const cost_input& x) {
  return ring_from_input(x, x.ip - 1, x.n / x.p) + (x.p - 1) / x.p * x.n * x.g;
}
double rs_textbook(const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }
// The first halving step swaps halves of the input; the later ones swap sums.
double halving_steps(const cost_input& x) {
  return per_exchange(x, x.n / 2) * u(x, x.n / 2) + halves(x, 2, x.lq, true);
}
double halving_fold(const cost_input& x) { return 2 * u(x, x.n / 2) + x.n * x.g; }
double halving_reduce_scatter(const cost_input& x) {
  return halving_steps(x) + (x.q - 1) / x.q * x.n * x.g + x.n / x.p * x.d +
         (x.fold ? halving_fold(x) + t(x, x.n / x.p) : 0);
}
double halving_textbook(const cost_input& x) {
  return x.lq * x.a + (x.q - 1) / x.q * x.n * (x.b + x.g) +
         (x.fold ? 3 * x.a + x.n * (x.b + x.g) + x.n / x.p * x.b : 0);
}
// The first block lands in recv and the rank's own input is added to it: no copy.
double pairwise_reduce_scatter(const cost_input& x) {
  return pairwise_shifts(x, x.n / x.p) + (x.p - 1) / x.p * x.n * x.g;
}
double naive_alltoall(const cost_input& x) { return x.n / x.p * x.d + 2 * (x.p - 1) * u(x, x.n / x.p); }
double pairwise_alltoall(const cost_input& x) { return x.n / x.p * x.d + pairwise_shifts(x, x.n / x.p); }
double alltoall_textbook(const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }
double naive_gather(const cost_input& x) { return x.n / x.p * x.d + (x.p - 1) * u(x, x.n / x.p); }
double gather_textbook(const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }
// The root sends its input to its first child, which passes the subtrees of n/4, n/8, … on.
double binomial_scatter(const cost_input& x) { return u(x, x.n / 2) + halves(x, 2, x.lg) + x.n / x.p * x.d; }
// The root receives a leaf's input (n/p) first, then its other children's gathered subtrees.
double binomial_gather(const cost_input& x) {
  return u(x, x.n / x.p) + halves(x, 1, x.lg - 1) + x.n / x.p * x.d;
}
double binomial_gather_textbook(const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }

// clang-format off
const cost_entry table[] = {
    {collective::broadcast, "naive", "(p−1)·u(n)",
     [](const cost_input& x) { return (x.p - 1) * u(x, x.n); }},
    {collective::broadcast, "binomial", "u(n) + (log p − 1)·t(n)", &binomial_broadcast},
    {collective::broadcast, "pipeline", "(2S + p − 3)·t(n/S), S = ⌈n / 64 KiB⌉ segments (p = 2: S·u(n/S))",
     &pipeline_seconds, &pipeline_textbook},
    {collective::broadcast, "scatter_allgather", "u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + R(p−1)·t(n/p)",
     [](const cost_input& x) { return binomial_scatter(x) - x.n / x.p * x.d + ring(x, x.ip - 1, x.n / x.p); },
     [](const cost_input& x) { return (x.lg + x.p - 1) * x.a + 2 * (x.p - 1) / x.p * x.n * x.b; }},
    {collective::broadcast, "scatter_recursive_doubling",
     "u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1); fold + t(n/p) + t(n)",
     [](const cost_input& x) {
       return binomial_scatter(x) - x.n / x.p * x.d + doubling_exchanges(x) +
              (x.fold ? t(x, x.n / x.p) + t(x, x.n) : 0);
     },
     [](const cost_input& x) {
       return (x.lg + x.lq) * x.a + ((x.p - 1) / x.p + (x.q - 1) / x.q) * x.n * x.b +
              (x.fold ? 2 * x.a + (x.n / x.p + x.n) * x.b : 0);
     }},
    {collective::broadcast, "pipelined_tree",
     "(2·⌊log p⌋ + 3(S − 1))·t(n/S), S = ⌈n / 32 KiB⌉ segments (p = 2: S·u(n/S); p = 3: 2S·u(n/S))",
     &pipelined_tree_seconds},

    {collective::scatter, "naive", "n/p·δ + (p−1)·u(n/p)", &naive_gather,
     &gather_textbook},
    {collective::scatter, "binomial", "u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + n/p·δ", &binomial_scatter,
     &binomial_gather_textbook},

    {collective::gather, "naive", "n/p·δ + (p−1)·u(n/p)", &naive_gather,
     &gather_textbook},
    {collective::gather, "binomial", "u(n/p) + Σᵢ t(n/2ⁱ) (i = 1…log p − 1) + n/p·δ", &binomial_gather,
     &binomial_gather_textbook},

    {collective::reduce, "naive", "(p−1)(u(n) + nγ)",
     [](const cost_input& x) { return (x.p - 1) * (u(x, x.n) + x.n * x.g) + (x.root == x.ip - 1 ? x.n * x.d : 0); }},
    {collective::reduce, "binomial", "u(n) + (log p − 1)·t(n) + log p·nγ (root 0)", &binomial_reduce},
    {collective::reduce, "rabenseifner",
     "2u(n/2) + t(n/2) + 3Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ; fold + 2u(n/2) + nγ, and + t(n/2) when the root sits out",
     [](const cost_input& x) {
       return halving_steps(x) + halves(x, 1, x.lq) + (x.q - 1) / x.q * x.n * x.g + (x.fold ? halving_fold(x) : 0) +
              (x.root_sits_out ? t(x, x.n / 2) : 0);
     },
     [](const cost_input& x) {
       return 2 * x.lq * x.a + (x.q - 1) / x.q * x.n * (2 * x.b + x.g) +
              (x.fold ? 2 * x.a + x.n * (x.b + x.g) : 0) + (x.root_sits_out ? x.a + x.n / 2 * x.b : 0);
     }},
    {collective::reduce, "pipelined_tree",
     "(2·⌊log p⌋ + 3(S − 1))·t(n/S) + 2(⌊log p⌋ + S − 1)·(n/S)γ, S = ⌈n / 32 KiB⌉ segments (p = 2: S·u(n/S) + nγ; p = 3: 2S·u(n/S) + 2nγ)",
     &pipelined_tree_reduce},

    {collective::allgather, "naive", "n/p·δ + (p−1)·u(n/p) + (p−1)·t(n)", &naive_allgather,
     &naive_allgather_textbook},
    {collective::allgather, "ring", "n/p·δ + R(p−1)·t(n/p)", &ring_allgather,
     &ring_textbook},
    {collective::allgather, "recursive_doubling", "n/p·δ + 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1); fold + u(n/p) + t(n)",
     &rd_allgather, &rd_allgather_textbook},
    {collective::allgather, "bruck", "n/p·δ + X(−1, −2, −4, …; min(d, p−d)·n/p) + (n + ⌊p/2⌋·n/p)δ (rotation)", &bruck_allgather,
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},

    {collective::reduce_scatter, "naive", "(p−1)(u(n) + nγ) + n/p·δ + (p−1)·t(n/p)", &naive_reduce_scatter,
     &naive_reduce_scatter_textbook},
    {collective::reduce_scatter, "ring", "2u(n/p) + (R(p−1) − 2)·t(n/p) + (p−1)/p·nγ", &ring_reduce_scatter,
     &rs_textbook},
    {collective::reduce_scatter, "recursive_halving",
     "2u(n/2) + 2Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ + n/p·δ; fold + 2u(n/2) + nγ + t(n/p)", &halving_reduce_scatter,
     &halving_textbook},
    {collective::reduce_scatter, "pairwise", "Xᵤ(1, 2, …, p−1; n/p) + (p−1)/p·nγ", &pairwise_reduce_scatter,
     &rs_textbook},

    // naive's critical path lies between this and about twice this (ranks wait on each other).
    {collective::alltoall, "naive", "n/p·δ + 2(p−1)·u(n/p), at best", &naive_alltoall,
     &alltoall_textbook},
    {collective::alltoall, "pairwise", "n/p·δ + Xᵤ(1, 2, …, p−1; n/p)", &pairwise_alltoall,
     &alltoall_textbook},
    {collective::alltoall, "bruck", "X(1, 2, 4, …; the blocks with bit d, about n/2) + (2n + 2·packed)·δ",
     [](const cost_input& x) {
       // Shift by d of the positions j < p with j & d; each packed out and unpacked in (2 copies),
       // and two rotations of the whole array.
       std::vector<int> k;
       std::vector<double> m;
       double packed = 0;
       for (int d : doublings(x.ip)) {
         int blocks = 0;
         for (int j = d; j < x.ip; ++j) blocks += (j & d) != 0;
         k.push_back(d);
         m.push_back(blocks * x.n / x.p);
         packed += blocks * x.n / x.p;
       }
       return shifts(x, k, m) + (2 * x.n + 2 * packed) * x.d;
     },
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b / 2); }},

    {collective::allreduce, "naive", "(p−1)(u(n) + nγ) + (p−1)·t(n)",
     [](const cost_input& x) { return (x.p - 1) * (u(x, x.n) + t(x, x.n) + x.n * x.g); }},
    {collective::allreduce, "ring", "2u(n/p) + (R(2(p−1)) − 2)·t(n/p) + (p−1)/p·nγ", &ring_allreduce,
     &ring_allreduce_textbook},
    // The first step sends the caller's input (u), except from the ranks the fold has combined into.
    {collective::allreduce, "recursive_doubling",
     "nδ + 2u(n) + (log p′ − 1)·2t(n) + log p′·nγ; fold + u(n) + t(n) + nγ, its first step up to 2t(n)",
     [](const cost_input& x) {
       const double first_step = per_exchange(x, x.n) * (x.fold ? t(x, x.n) : u(x, x.n));
       return x.n * x.d + first_step + (x.lq - 1) * per_exchange(x, x.n) * t(x, x.n) + x.lq * x.n * x.g +
              (x.fold ? u(x, x.n) + t(x, x.n) + x.n * x.g : 0);
     },
     [](const cost_input& x) {
       return x.lq * (x.a + x.n * x.b + x.n * x.g) + (x.fold ? 2 * (x.a + x.n * x.b) + x.n * x.g : 0);
     }},
    // Halving at distance 1 first, doubling back from p′/2: every rank sends n/2, n/4, … and back
    // whatever the order of the distances, so one host prices it the same; which steps cross
    // hosts (the small ones) is host_model.cpp's business.
    {collective::allreduce, "rabenseifner",
     "2u(n/2) + 2t(n/2) + 4Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ; fold + 2u(n/2) + t(n) + nγ",
     [](const cost_input& x) {
       return halving_steps(x) + halves(x, 1, x.lq, true) + (x.q - 1) / x.q * x.n * x.g +
              (x.fold ? halving_fold(x) + t(x, x.n) : 0);
     },
     [](const cost_input& x) {
       return 2 * x.lq * x.a + (x.q - 1) / x.q * x.n * (2 * x.b + x.g) +
              (x.fold ? 3 * x.a + 2 * x.n * x.b + x.n * x.g : 0);
     }},

    // barrier moves no data (n = 0): latency terms only.
    {collective::barrier, "naive", "2(p−1)α",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a; }},
    {collective::barrier, "binomial", "2 log p·α",
     [](const cost_input& x) { return 2 * x.lg * x.a; }},
    {collective::barrier, "dissemination", "X(1, 2, 4, …; 0)",
     [](const cost_input& x) {
       const std::vector<int> k = doublings(x.ip);
       return shifts(x, k, std::vector<double>(k.size(), 0.0));
     },
     [](const cost_input& x) { return x.lg * x.a; }},
    {collective::barrier, "recursive_doubling", "2 log p′·α; fold + 2α",
     [](const cost_input& x) { return 2 * x.lq * x.a + (x.fold ? 2 * x.a : 0); },
     [](const cost_input& x) { return x.lq * x.a + (x.fold ? 2 * x.a : 0); }},

    {collective::scan, "naive", "nδ + (p−1)(t(n) + nγ)",
     [](const cost_input& x) { return x.n * x.d + (x.p - 1) * (t(x, x.n) + x.n * x.g); },
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b + x.n * x.g); }},
    {collective::scan, "recursive_doubling", "nδ + 2u(n) + 2(log p − 1)·t(n) + (2 log p − 1)·nγ",
     [](const cost_input& x) {
       return x.n * x.d + 2 * u(x, x.n) + 2 * (x.lg - 1) * t(x, x.n) + (2 * x.lg - 1) * x.n * x.g;
     },
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b) + (2 * x.lg - 1) * x.n * x.g; }},

    {collective::exscan, "naive", "u(n) + (p−2)·(t(n) + nγ)",
     [](const cost_input& x) { return u(x, x.n) + std::max(x.p - 2, 0.0) * (t(x, x.n) + x.n * x.g); }},
    {collective::exscan, "recursive_doubling", "2u(n) + 2(log p − 1)·t(n) + (2 log p − 2)·nγ (+ nδ from p = 3 on)",
     [](const cost_input& x) {
       return 2 * u(x, x.n) + 2 * (x.lg - 1) * t(x, x.n) + (2 * x.lg - 2) * x.n * x.g + (x.ip > 2 ? x.n * x.d : 0);
     },
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b) + (2 * x.lg - 2) * x.n * x.g; }},

    // The v-variants at equal blocks (--skew 0), the lines of their block forms; binomial gatherv
    // and scatterv also send the counts down the tree first (log p·α: 8-byte counts).
    {collective::gatherv, "naive", "n/p·δ + (p−1)·u(n/p)", &naive_gather,
     &gather_textbook},
    {collective::gatherv, "binomial", "log p·α + u(n/p) + Σᵢ t(n/2ⁱ) (i = 1…log p − 1) + n/p·δ",
     [](const cost_input& x) { return x.lg * x.a + binomial_gather(x); },
     [](const cost_input& x) { return 2 * x.lg * x.a + (x.p - 1) / x.p * x.n * x.b + 8 * (x.p - 1) * x.b; }},
    {collective::scatterv, "naive", "n/p·δ + (p−1)·u(n/p)", &naive_gather,
     &gather_textbook},
    {collective::scatterv, "binomial", "log p·α + u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + n/p·δ",
     [](const cost_input& x) { return x.lg * x.a + binomial_scatter(x); },
     [](const cost_input& x) { return 2 * x.lg * x.a + (x.p - 1) / x.p * x.n * x.b + 8 * (x.p - 1) * x.b; }},
    {collective::allgatherv, "naive", "n/p·δ + (p−1)·u(n/p) + (p−1)·t(n)", &naive_allgather,
     &naive_allgather_textbook},
    {collective::allgatherv, "ring", "n/p·δ + R(p−1)·t(n/p)", &ring_allgather,
     &ring_textbook},
    {collective::allgatherv, "recursive_doubling", "n/p·δ + 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1); fold + u(n/p) + t(n)",
     &rd_allgather, &rd_allgather_textbook},
    {collective::allgatherv, "bruck", "n/p·δ + X(−1, −2, −4, …; min(d, p−d)·n/p) + (n + ⌊p/2⌋·n/p)δ (rotation)", &bruck_allgather,
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::alltoallv, "naive", "n/p·δ + 2(p−1)·u(n/p), at best", &naive_alltoall,
     &alltoall_textbook},
    {collective::alltoallv, "pairwise", "n/p·δ + Xᵤ(1, 2, …, p−1; n/p)", &pairwise_alltoall,
     &alltoall_textbook},
    {collective::reduce_scatterv, "naive", "(p−1)(u(n) + nγ) + n/p·δ + (p−1)·t(n/p)", &naive_reduce_scatter,
     &naive_reduce_scatter_textbook},
    {collective::reduce_scatterv, "ring", "2u(n/p) + (R(p−1) − 2)·t(n/p) + (p−1)/p·nγ + n/p·δ",
     [](const cost_input& x) { return ring_reduce_scatter(x) + x.n / x.p * x.d; },
     &rs_textbook},
    {collective::reduce_scatterv, "recursive_halving",
     "2u(n/2) + 2Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ + n/p·δ; fold + 2u(n/2) + nγ + t(n/p)", &halving_reduce_scatter,
     &halving_textbook},
    {collective::reduce_scatterv, "pairwise", "Xᵤ(1, 2, …, p−1; n/p) + (p−1)/p·nγ", &pairwise_reduce_scatter,
     &rs_textbook},

    // hierarchical on one host, the only layout this model describes (one α-β pair): there each
    // runs the flat algorithm named, and its line is that algorithm's; across hosts the costs are
    // in the algorithms' headers.
    {collective::broadcast, "hierarchical", "one host: binomial's, u(n) + (log p − 1)·t(n)", &binomial_broadcast},
    {collective::reduce, "hierarchical", "one host: binomial's, u(n) + (log p − 1)·t(n) + log p·nγ (root 0)",
     &binomial_reduce},
    {collective::allgather, "hierarchical", "one host: ring's, n/p·δ + R(p−1)·t(n/p)", &ring_allgather,
     &ring_textbook},
    {collective::allreduce, "hierarchical", "one host: ring's, 2u(n/p) + (R(2(p−1)) − 2)·t(n/p) + (p−1)/p·nγ", &ring_allreduce,
     &ring_allreduce_textbook},
};
// clang-format on

// The vendor internals priced by a line of the table: Open MPI's coll/base (4.1) algorithm of
// that name runs the library's schedule (vendor:pipeline with the library's segment size, which
// variants.cpp sets), except where it switches to another algorithm, whose line then applies.
// Every other internal (chain, knomial, linear_sync, segmented_ring, …) has no line rather than
// a wrong one.
struct vendor_line {
  collective coll;
  std::string_view name;
  std::string_view note = {};                                        ///< where Open MPI switches
  std::string_view (*switched)(int p, std::size_t count) = nullptr;  ///< to which line; empty if not
};

const vendor_line vendor_lines[] = {
    {collective::broadcast, "binomial"},
    {collective::broadcast, "pipeline"},
    {collective::scatter, "binomial"},
    {collective::gather, "binomial"},
    {collective::reduce, "binomial"},
    {collective::allgather, "ring"},
    {collective::allgather, "bruck"},
    {collective::allgather, "recursive_doubling", "Open MPI runs Bruck's when p is not a power of two",
     [](int p, std::size_t) -> std::string_view {
       return std::has_single_bit(static_cast<unsigned>(p)) ? "" : "bruck";
     }},
    {collective::alltoall, "pairwise"},
    {collective::alltoallv, "pairwise"},
    {collective::allreduce, "ring", "Open MPI runs recursive doubling below p elements",
     [](int p, std::size_t count) -> std::string_view {
       return count < static_cast<std::size_t>(p) ? "recursive_doubling" : "";
     }},
    {collective::allreduce, "recursive_doubling"},
    {collective::barrier, "linear", "Open MPI's linear barrier is the library's naive",
     [](int, std::size_t) -> std::string_view { return "naive"; }},
    {collective::barrier, "bruck", "Open MPI's bruck barrier is the dissemination barrier",
     [](int, std::size_t) -> std::string_view { return "dissemination"; }},
    {collective::barrier, "recursive_doubling"},
    {collective::scan, "linear", "Open MPI's linear scan is the library's naive chain",
     [](int, std::size_t) -> std::string_view { return "naive"; }},
    {collective::scan, "recursive_doubling"},
    {collective::exscan, "linear", "Open MPI's linear exscan is the library's naive chain",
     [](int, std::size_t) -> std::string_view { return "naive"; }},
    {collective::exscan, "recursive_doubling"},
};

// The lines describe Open MPI's algorithms: another library's internals of the same name (MPICH's
// recursive_doubling allgather, for one, is not Bruck's when p is not a power of two) get none.
const vendor_line* find_vendor([[maybe_unused]] collective c, [[maybe_unused]] std::string_view name) {
#ifdef OMPI_MAJOR_VERSION
  for (const vendor_line& v : vendor_lines)
    if (v.coll == c && v.name == name) return &v;
#endif
  return nullptr;
}

const cost_entry* find(collective c, std::string_view algorithm) {
  for (const cost_entry& e : table)
    if (e.coll == c && e.algorithm == algorithm) return &e;
  return nullptr;
}

// The line that prices `algorithm` (a row label) for a call of `count` elements on p ranks, and
// whether its textbook cost applies (a vendor internal: the MPI library's exchanges are concurrent).
struct line {
  const cost_entry* entry;
  bool textbook;
};
line find_line(collective c, std::string_view algorithm, int p, std::size_t count) {
  if (!algorithm.starts_with("vendor:")) return {find(c, algorithm), false};
  algorithm.remove_prefix(7);
  const vendor_line* v = find_vendor(c, algorithm);
  if (!v) return {nullptr, true};
  const std::string_view other = v->switched ? v->switched(p, count) : std::string_view{};
  return {find(c, other.empty() ? algorithm : other), true};
}

// The textbook cost of the library's algorithm `name`, from its descriptor.
std::string_view textbook_text(collective c, std::string_view name) {
  const std::optional<collectives::algorithm> a = collectives::parse_algorithm(name);
  const collectives::detail::algorithm_descriptor* d = a ? collectives::detail::find_algorithm(c, *a) : nullptr;
  return d != nullptr ? d->cost : std::string_view{};
}

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

std::string cost_formula(collective c, std::string_view algorithm, int p, bool textbook_only) {
  const auto [e, textbook] = find_line(c, algorithm, p, static_cast<std::size_t>(-1));
  if (!e) return {};
  const std::string_view book = textbook_text(c, e->algorithm);
  std::string text((textbook && e->textbook_seconds) || (textbook_only && !book.empty()) ? book : e->formula);
  if (algorithm.starts_with("vendor:"))
    if (const vendor_line* v = find_vendor(c, algorithm.substr(7)); v && !v->note.empty())
      text += fmt::format(" ({})", v->note);
  return text;
}

std::string_view vendor_runs(collective c, std::string_view name, int p, std::size_t count) {
  const vendor_line* v = find_vendor(c, name);
  if (!v) return {};
  const std::string_view other = v->switched ? v->switched(p, count) : std::string_view{};
  return other.empty() ? v->name : other;
}

std::optional<double> predict_seconds(collective c, std::string_view algorithm, const call_shape& call,
                                      const cost_params& m) {
  const auto [e, textbook] = find_line(c, algorithm, call.p, call.count);
  if (!e) return std::nullopt;
  const unsigned ranks = static_cast<unsigned>(std::max(call.p, 1));
  const double lg = std::bit_width(ranks - 1u);
  const unsigned q = std::bit_floor(ranks);
  const double lq = std::bit_width(q) - 1;
  // pof2_fold sets aside the even rank of each of the first p − p′ pairs.
  const unsigned root = static_cast<unsigned>(std::max(call.root, 0));
  const bool root_sits_out = root < 2 * (ranks - q) && root % 2 == 0;
  const cost_input x{static_cast<double>(call.p),
                     static_cast<int>(ranks),
                     lg,
                     static_cast<double>(q),
                     lq,
                     q != ranks,
                     root_sits_out,
                     call.n,
                     call_footprint(c, call.p, call.n),
                     m.alpha,
                     m.beta,
                     measured_per_byte(m.reduce, call.n, m.gamma),
                     measured_per_byte(m.copy, call.n, m.delta),
                     call.root,
                     &m};
  return textbook && e->textbook_seconds ? e->textbook_seconds(x) : e->seconds(x);
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
  switch (c) {
    case collective::broadcast:
      return p * n;
    case collective::reduce:
      return (p + 1) * n;  // every rank's vector, and the root's result
    case collective::allreduce:
    case collective::scan:
    case collective::exscan:
    case collective::alltoall:
    case collective::alltoallv:
      return 2 * p * n;
    case collective::scatter:
    case collective::gather:
    case collective::scatterv:
    case collective::gatherv:
      return 2 * n;  // the root's p blocks, and one block on every rank
    case collective::allgather:
    case collective::allgatherv:
    case collective::reduce_scatter:
    case collective::reduce_scatterv:
      return (p + 1) * n;  // one block on every rank, and p blocks on every rank
    case collective::barrier:
      break;
  }
  return 0;
}

double shift_steps_seconds(int p, const std::vector<int>& shifts, const std::vector<double>& bytes,
                           const cost_params& m, bool clean, double footprint) {
  std::vector<double> ready(static_cast<std::size_t>(std::max(p, 1)), 0.0);
  for (std::size_t i = 0; i < shifts.size() && p > 1; ++i) {
    const int k = ((shifts[i] % p) + p) % p;
    if (k == 0) continue;  // a local copy, not a message
    const double message = message_seconds(m, bytes[i], clean, footprint);
    if (m.eager > 0 && bytes[i] <= m.eager) {
      // Every rank sends first, then receives from rank − k: done one message after both arrive.
      std::vector<double> before = ready;
      for (int r = 0; r < p; ++r)
        ready[static_cast<std::size_t>(r)] =
            std::max(before[static_cast<std::size_t>(r)], before[static_cast<std::size_t>((r - k + p) % p)]) + message;
      continue;
    }
    const int g = std::gcd(k, p), length = p / g;
    for (int c = 0; c < g; ++c) {
      // The cycle c, c+k, c+2k, …: member j sends message j to member j+1 and receives message
      // j−1; even members send first (transport::sends_first). A pairing (length 2) is done two
      // messages after both sides arrive, whichever sends first.
      const auto rank_at = [&](int j) {
        return static_cast<std::size_t>((c + static_cast<long long>(j) * k) % p);
      };
      if (length == 2) {
        const double end = std::max(ready[rank_at(0)], ready[rank_at(1)]) + 2 * message;
        ready[rank_at(0)] = ready[rank_at(1)] = end;
        continue;
      }
      std::vector<int> done(static_cast<std::size_t>(length), 0);  // operations finished per member
      std::vector<double> clock(static_cast<std::size_t>(length));
      for (int j = 0; j < length; ++j) clock[static_cast<std::size_t>(j)] = ready[rank_at(j)];
      // Message j can start when member j is at its send and member j+1 at its receive.
      const auto at_send = [&](int j) { return done[static_cast<std::size_t>(j)] == (j % 2 == 0 ? 0 : 1); };
      const auto at_recv = [&](int j) { return done[static_cast<std::size_t>(j)] == (j % 2 == 0 ? 1 : 0); };
      for (int left = length; left > 0;) {
        const int before = left;
        for (int j = 0; j < length; ++j) {
          const int next = (j + 1) % length;
          if (!at_send(j) || !at_recv(next)) continue;
          const double end =
              std::max(clock[static_cast<std::size_t>(j)], clock[static_cast<std::size_t>(next)]) + message;
          clock[static_cast<std::size_t>(j)] = clock[static_cast<std::size_t>(next)] = end;
          ++done[static_cast<std::size_t>(j)];
          ++done[static_cast<std::size_t>(next)];
          --left;
        }
        if (left == before) throw std::logic_error("shift_steps_seconds: the cycle's order deadlocks");
      }
      for (int j = 0; j < length; ++j) ready[rank_at(j)] = clock[static_cast<std::size_t>(j)];
    }
  }
  return *std::max_element(ready.begin(), ready.end());
}

std::size_t pipeline_segment_bytes(std::size_t unset) {
  const char* text = std::getenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
  if (text == nullptr) return unset;
  const std::string_view value(text);
  std::size_t bytes = 0;
  const auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), bytes);
  return status == std::errc() && end == value.data() + value.size() && bytes > 0 ? bytes : unset;
}

}  // namespace collbench
