// SPDX-License-Identifier: BSD-3-Clause
// collbench's model, in the program of unit_test.cpp (which holds its module): every row's schedule
// priced on a measured machine, across hosts and on a SimGrid platform file, against closed forms;
// every algorithm header's "Cost:" line against its descriptor; the vendor internals priced by the
// library's schedules; the pipeline's segment as the library reads it; the ping-pong fit.

#include <mpi.h>  // OMPI_MAJOR_VERSION: vendor_runs describes Open MPI's internals

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <collectives/algorithm.hpp>
#include <collectives/error.hpp>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "measure/metrics.hpp"
#include "measure/variants.hpp"
#include "model/host_links.hpp"
#include "model/message_times.hpp"
#include "model/model.hpp"
#include "model/price.hpp"
#include "model/simgrid_platform.hpp"
#include "report/output.hpp"

using collectives::collective;
namespace cb = collbench;

// The model: every row's schedule recorded and priced (price.hpp) on a measured machine. With a
// cost_params of α, β (and β_u, γ, δ) and no measured points, a message of m bytes costs
// t(m) = α + mβ (forwarded bytes) or u(m) = α + mβ_u (the caller's untouched input), so the price
// of a schedule has a closed form to check against.
namespace {

// A row as collbench reports it: p ranks, the root, n bytes (metrics.hpp), `count` elements.
struct call {
  int p;
  int root;
  double n;
  std::size_t count;
};

// The row's schedule priced on the measured machine `m`, every rank on one host, E `eager`.
std::optional<double> priced(collective c, std::string_view algorithm, const call& x,
                             const cb::cost_params& m, std::size_t eager = 0) {
  const collectives::eager_limits limits{eager, eager};
  const auto net = cb::measured_platform(m, c, x.p, x.n, nullptr, &limits);
  const std::size_t elem = x.count > 0 ? static_cast<std::size_t>(x.n) / x.count : 4;
  const std::size_t call_count =
      cb::counts_whole_array(c) ? x.count / static_cast<std::size_t>(x.p) : x.count;
  return cb::priced_seconds(c, algorithm, x.p, call_count, elem, x.root, 0, *net);
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_library_algorithm_gets_a_price_on_a_measured_machine) {
  const cb::cost_params m{2e-6, 1e-9, 0.5e-9, 0.1e-9};
  for (collective c : collectives::all_collectives())
    for (int p = 1; p <= 8; ++p) {
      const auto s = cb::shape(c, 4096, 4, p);
      BOOST_TEST_REQUIRE(s.has_value(), to_string(c));
      const call x{p, p - 1, static_cast<double>(s->bytes), s->count};
      for (collectives::algorithm a : collectives::algorithms_for(c))
        if (a != collectives::algorithm::vendor && a != collectives::algorithm::automatic)
          BOOST_TEST(priced(c, to_string(a), x, m).has_value(), to_string(c)
                                                                    << " " << to_string(a) << " p = " << p);
      // No schedule, no price: vendor and automatic run none of the library's own.
      BOOST_TEST(!priced(c, "vendor", x, m).has_value());
      BOOST_TEST(!priced(c, "automatic", x, m).has_value());
    }
}

BOOST_AUTO_TEST_CASE(every_algorithm_header_states_its_textbook_cost) {
  // The "Cost:" field of src/algorithms/<collective>/<algorithm>.cpp states its descriptor's cost
  // (the one docs/algorithms.md's table shows), then may say more; spaces and middle dots aside.
  const auto plain = [](std::string s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s.compare(i, 2, "·") == 0)
        ++i;
      else if (s[i] != ' ')
        out += s[i];
    return out;
  };
  for (collective c : collectives::all_collectives())
    for (collectives::algorithm a : collectives::algorithms_for(c)) {
      if (a == collectives::algorithm::vendor) continue;
      const std::string path = std::string(COLLECTIVES_SOURCE_DIR) + "/src/algorithms/" +
                               std::string(to_string(c)) + "/" + std::string(to_string(a)) + ".cpp";
      std::ifstream file(path);
      BOOST_TEST_REQUIRE(file.good(), path);
      std::string line, text;
      bool inside = false;
      while (std::getline(file, line)) {
        // The field runs from "// Cost:" over its indented lines, up to the next label ("// Order:").
        if (line.starts_with("// Cost:"))
          inside = true;
        else if (inside && !line.starts_with("//  "))
          break;
        if (inside) text += line.substr(line.starts_with("// Cost:") ? 8 : 2);
      }
      const std::string_view cost = cb::textbook_cost(c, to_string(a), 4);
      BOOST_TEST(!cost.empty(), to_string(c) << " " << to_string(a));
      BOOST_TEST(plain(text).find(plain(std::string(cost))) != std::string::npos,
                 path << " says \"" << text << "\", its descriptor \"" << cost << "\"");
    }
}

BOOST_AUTO_TEST_CASE(priced_schedules_count_what_the_code_sends) {
  const cb::cost_params m{2e-6, 1e-9, 0.5e-9, 0.1e-9};
  const double n = 1 << 20;
  const std::size_t count = 1 << 18;
  const auto t = [&](double bytes) { return m.alpha + bytes * m.beta; };
  // ring allreduce at p = 4: 2(p−1) exchange steps of n/4, two blocking messages each: 12.
  BOOST_TEST(
      *priced(collective::allreduce, "ring", {4, 0, n, count}, m) == 12 * t(n / 4) + 0.75 * n * m.gamma,
      boost::test_tools::tolerance(1e-12));
  // at p = 5 the ring's cycle is odd: two adjacent senders, one waits a message longer every
  // (p−1)/2 steps: R(8) = 16 + ⌈16/4⌉ = 20 messages of n/5, when the blocks are equal.
  const double n5 = 5 << 18;
  BOOST_TEST(
      *priced(collective::allreduce, "ring", {5, 0, n5, 5 << 16}, m) == 20 * t(n5 / 5) + 0.8 * n5 * m.gamma,
      boost::test_tools::tolerance(1e-12));
  // 2^18 elements are not: the early blocks are one element larger (block_partition), and the
  // critical path carries some of those. The code sends whole elements, so the schedule's price
  // lies above the line's n/5, which averaged them, and below 20 messages of the larger block.
  const double ring5 = *priced(collective::allreduce, "ring", {5, 0, n, count}, m);
  BOOST_TEST(ring5 > 20 * t(n / 5) + 0.8 * n * m.gamma);
  BOOST_TEST(ring5 < 20 * t(n / 5 + 4) + 0.8 * (n + 20) * m.gamma);
  // recursive doubling allreduce: a copy in (the result ends in recv, so none out), log p pairings of
  // 2t(n) + nγ at p = 4; at p = 5 the core runs on 4 ranks and the fifth is folded in and out (2t(n) + nγ).
  BOOST_TEST(*priced(collective::allreduce, "recursive_doubling", {4, 0, n, count}, m) ==
                 n * m.delta + 2 * (2 * t(n) + n * m.gamma),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*priced(collective::allreduce, "recursive_doubling", {5, 0, n, count}, m) ==
                 n * m.delta + 2 * (2 * t(n) + n * m.gamma) + 2 * t(n) + n * m.gamma,
             boost::test_tools::tolerance(1e-12));
  // binomial reduce to root 0 copies nothing: log p messages and reductions.
  BOOST_TEST(*priced(collective::reduce, "binomial", {8, 0, n, count}, m) == 3 * (t(n) + n * m.gamma),
             boost::test_tools::tolerance(1e-12));
  // pairwise reduce-scatter at p = 2: one pairing of half the array, no copy.
  BOOST_TEST(
      *priced(collective::reduce_scatter, "pairwise", {2, 0, n, count}, m) == 2 * t(n / 2) + n / 2 * m.gamma,
      boost::test_tools::tolerance(1e-12));
  // exscan by recursive doubling at p = 2 is one pairing; from p = 3 on a rank copies its input.
  BOOST_TEST(*priced(collective::exscan, "recursive_doubling", {2, 0, n, count}, m) == 2 * t(n),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*priced(collective::exscan, "recursive_doubling", {4, 0, n, count}, m) ==
                 4 * t(n) + 2 * n * m.gamma + n * m.delta,
             boost::test_tools::tolerance(1e-12));
  // Bruck allgather at p = 2: the own block placed, one pairing of a block, and rank 1's rotation,
  // which moves both blocks and parks one on the way.
  BOOST_TEST(*priced(collective::allgather, "bruck", {2, 0, n, count}, m) ==
                 n / 2 * m.delta + 2 * t(n / 2) + 1.5 * n * m.delta,
             boost::test_tools::tolerance(1e-12));
  // pipeline broadcast of 1 MiB at p = 4: 16 segments of 64 KiB; an inner rank receives, then sends,
  // so a segment passes every two messages: (2S + p − 3) = 33; at p = 2 the chain is one link: S.
  BOOST_TEST(*priced(collective::broadcast, "pipeline", {4, 0, n, count}, m) == 33 * t(n / 16),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*priced(collective::broadcast, "pipeline", {2, 0, n, count}, m) == 16 * t(n / 16),
             boost::test_tools::tolerance(1e-12));
  // binomial broadcast at p = 8: 3(α + nβ).
  BOOST_TEST(*priced(collective::broadcast, "binomial", {8, 0, n, count}, m) == 3 * t(n),
             boost::test_tools::tolerance(1e-12));
  // pairwise alltoall at p = 4: the own block copied, then shifts by 1, 2 (a pairing) and 3, every
  // cycle even: 2 messages of n/4 each.
  BOOST_TEST(*priced(collective::alltoall, "pairwise", {4, 0, n, count}, m) == n / 4 * m.delta + 6 * t(n / 4),
             boost::test_tools::tolerance(1e-12));
  // naive gather: the root's own block copied, then p − 1 messages of one block.
  BOOST_TEST(*priced(collective::gather, "naive", {4, 0, n, count}, m) == n / 4 * m.delta + 3 * t(n / 4),
             boost::test_tools::tolerance(1e-12));
  // rabenseifner reduce at p = 3: the fold sets rank 0 aside, which costs α + n/2·β more when it
  // is the root than when rank 1 is.
  BOOST_TEST(*priced(collective::reduce, "rabenseifner", {3, 0, n, count}, m) -
                     *priced(collective::reduce, "rabenseifner", {3, 1, n, count}, m) ==
                 m.alpha + n / 2 * m.beta,
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(untouched_bytes_and_forwarded_bytes_cost_their_own_beta) {
  // u(m) = α + mβ_u for bytes the sender left untouched (its input, the root's buffer), t(m) = α + mβ
  // for bytes it just received, reduced or copied: the recording says which sends are which.
  cb::cost_params m{2e-6, 1e-9, 0.5e-9, 0.1e-9};
  m.beta_clean = 0.25e-9;
  const double n = 1 << 20;
  const std::size_t count = 1 << 18;
  const auto t = [&](double bytes) { return m.alpha + bytes * m.beta; };
  const auto u = [&](double bytes) { return m.alpha + bytes * m.beta_clean; };
  BOOST_TEST(cb::message_seconds(m, n, true) == u(n), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cb::message_seconds(m, n, false) == t(n), boost::test_tools::tolerance(1e-12));
  // binomial broadcast: the root's message is untouched, every later hop forwards.
  BOOST_TEST(*priced(collective::broadcast, "binomial", {2, 0, n, count}, m) == u(n),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*priced(collective::broadcast, "binomial", {8, 0, n, count}, m) == u(n) + 2 * t(n),
             boost::test_tools::tolerance(1e-12));
  // ring allreduce at p = 2: the reduce-scatter step swaps halves of the inputs, the allgather step
  // the sums just formed.
  BOOST_TEST(*priced(collective::allreduce, "ring", {2, 0, n, count}, m) ==
                 2 * u(n / 2) + 2 * t(n / 2) + n / 2 * m.gamma,
             boost::test_tools::tolerance(1e-12));
  // ring allgather forwards from the first step: the own block was just copied into recv.
  BOOST_TEST(*priced(collective::allgather, "ring", {2, 0, n, count}, m) == n / 2 * m.delta + 2 * t(n / 2),
             boost::test_tools::tolerance(1e-12));
  // pairwise alltoall sends blocks of the input only; recursive halving's later steps send sums.
  BOOST_TEST(*priced(collective::alltoall, "pairwise", {4, 0, n, count}, m) == n / 4 * m.delta + 6 * u(n / 4),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*priced(collective::reduce_scatter, "recursive_halving", {4, 0, n, count}, m) ==
                 2 * u(n / 2) + 2 * t(n / 4) + 0.75 * n * m.gamma + n / 4 * m.delta,
             boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(measured_ping_pongs_price_a_message_by_its_size) {
  // With the ping-pongs' points, a message costs the time measured at its size: straight lines
  // between the points, the first point's time below it, the last segment's slope above.
  cb::cost_params m{1e-6, 1e-9, 0, 0};
  m.forward = {{1, 1e-6}, {4096, 4e-6}, {65536, 10e-6}, {1 << 20, 100e-6}};
  m.clean = {{1, 1e-6}, {4096, 3e-6}, {65536, 6e-6}, {1 << 20, 60e-6}};
  BOOST_TEST(cb::message_seconds(m, 65536, false) == 10e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cb::message_seconds(m, 65536, true) == 6e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cb::message_seconds(m, (4096 + 65536) / 2, false) == 7e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cb::message_seconds(m, 0, false) == 1e-6, boost::test_tools::tolerance(1e-12));
  const double slope = (100e-6 - 10e-6) / ((1 << 20) - 65536);
  BOOST_TEST(cb::message_seconds(m, 2 << 20, false) == 100e-6 + (1 << 20) * slope,
             boost::test_tools::tolerance(1e-12));
  // The footprint rule: within a call, a message moves at the time per byte of the ping-pong that
  // touches as many bytes as the call (the clean one touches 4m: two buffers on each of two ranks).
  // More: never faster than its own ping-pong; 1 MiB in a call of 64 MiB, as u(16 MiB) per byte.
  const double u_512k = 6e-6 + (524288 - 65536) * (60e-6 - 6e-6) / ((1 << 20) - 65536);
  BOOST_TEST(cb::message_seconds(m, 1 << 20, true, 64 << 20) ==
                 std::max(60e-6, cb::message_seconds(m, 16 << 20, true) / 16),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cb::message_seconds(m, 65536, true, 64 << 20) == 6e-6, boost::test_tools::tolerance(1e-12));
  // Less: as fast as the smaller ping-pong where it is mostly per byte (≥ 256 KiB), else its own.
  // A broadcast of 1 MiB at p = 2 touches 2 MiB, as the clean ping-pong of 512 KiB does.
  BOOST_TEST(*priced(collective::broadcast, "naive", {2, 0, 1 << 20, 1 << 18}, m) == 2 * u_512k,
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(cb::message_seconds(m, 65536, true, 65536) == 6e-6, boost::test_tools::tolerance(1e-12));
  // The pipeline's 16 segments of 64 KiB in a call of 2 MiB keep the 64 KiB ping-pong's time; one
  // of 16 MiB at p = 2 touches 32 MiB: its 256 segments stream at the 8 MiB ping-pong's time per
  // byte, slower than the 64 KiB ping-pong run from the caches.
  BOOST_TEST(*priced(collective::broadcast, "pipeline", {2, 0, 1 << 20, 1 << 18}, m) == 16 * 6e-6,
             boost::test_tools::tolerance(1e-12));
  m.clean.push_back({16 << 20, 2000e-6});
  BOOST_TEST(*priced(collective::broadcast, "pipeline", {2, 0, 16 << 20, 4 << 20}, m) ==
                 256 * (65536 * cb::message_seconds(m, 8 << 20, true) / (8 << 20)),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(65536 * cb::message_seconds(m, 8 << 20, true) / (8 << 20) > 6e-6);
  // Copies and reductions cost their per-byte time measured at the call's size n: in the caches
  // (1 MiB here) four times faster than from memory (16 MiB).
  m.delta = 1.0 / 10e9;
  m.gamma = 1.0 / 5e9;
  m.copy = {{4096, 4096 / 40e9}, {1 << 20, (1 << 20) / 40e9}, {16 << 20, (16 << 20) / 10e9}};
  m.reduce = {{4096, 4096 / 20e9}, {1 << 20, (1 << 20) / 20e9}, {16 << 20, (16 << 20) / 5e9}};
  BOOST_TEST(*priced(collective::gather, "naive", {2, 0, 1 << 20, 1 << 18}, m) ==
                 (1 << 19) / 40e9 + cb::message_seconds(m, 1 << 19, true),
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(*priced(collective::reduce, "naive", {2, 0, 16 << 20, 4 << 20}, m) ==
                 cb::message_seconds(m, 16 << 20, true, 3.0 * (16 << 20)) + (16 << 20) / 5e9,
             boost::test_tools::tolerance(1e-9));
  // Below the first point, a copy keeps the first point's speed.
  BOOST_TEST(*priced(collective::gather, "naive", {2, 0, 1024, 256}, m) ==
                 512 / 40e9 + cb::message_seconds(m, 512, true),
             boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(vendor_internals_are_priced_only_where_they_run_a_library_schedule) {
  // A vendor internal that runs one of the library's schedules is priced by that schedule, every
  // exchange concurrent (the MPI library's send-receive) and every send returning at once.
  const cb::cost_params m{2e-6, 1e-9, 0.5e-9};
  const double n = 1 << 20;
  const auto t = [&](double bytes) { return m.alpha + bytes * m.beta; };
#ifndef OMPI_MAJOR_VERSION
  // vendor_runs describes Open MPI's internals: another library's of the same name run none.
  BOOST_TEST(!priced(collective::allreduce, "vendor:ring", {4, 0, n, 1 << 18}, m).has_value());
  return;
#endif
  BOOST_TEST(*priced(collective::broadcast, "vendor:binomial", {8, 0, n, 1 << 18}, m) ==
             *priced(collective::broadcast, "binomial", {8, 0, n, 1 << 18}, m));
  // Open MPI's ring allreduce: the ring with concurrent exchanges, one message a step, its
  // textbook cost; recursive doubling's below p elements.
  BOOST_TEST(*priced(collective::allreduce, "vendor:ring", {4, 0, n, 1 << 18}, m) ==
                 6 * t(n / 4) + 0.75 * n * m.gamma,
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(*priced(collective::allreduce, "vendor:ring", {4, 0, n, 1 << 18}, m) <
             *priced(collective::allreduce, "ring", {4, 0, n, 1 << 18}, m));
  BOOST_TEST(*priced(collective::allreduce, "vendor:ring", {4, 0, 8, 2}, m) ==
             *priced(collective::allreduce, "vendor:recursive_doubling", {4, 0, 8, 2}, m));
  BOOST_TEST(*priced(collective::allreduce, "vendor:recursive_doubling", {4, 0, 8, 2}, m) ==
                 2 * (t(8) + 8 * m.gamma),
             boost::test_tools::tolerance(1e-12));
  // Open MPI's recursive doubling allgather is Bruck's when p is not a power of two.
  BOOST_TEST(*priced(collective::allgather, "vendor:recursive_doubling", {3, 0, n, 1 << 18}, m) ==
             *priced(collective::allgather, "vendor:bruck", {3, 0, n, 1 << 18}, m));
  BOOST_TEST(*priced(collective::allgather, "vendor:recursive_doubling", {4, 0, n, 1 << 18}, m) ==
                 t(n / 4) + t(n / 2),
             boost::test_tools::tolerance(1e-12));
  // No price rather than a wrong one: segmented ring, chain, and what the library has no twin of.
  for (const char* label : {"vendor:segmented_ring", "vendor:basic_linear", "vendor:rabenseifner"})
    BOOST_TEST(!priced(collective::allreduce, label, {4, 0, n, 1 << 18}, m).has_value(), label);
  BOOST_TEST(!priced(collective::broadcast, "vendor:chain", {4, 0, n, 1 << 18}, m).has_value());
}

BOOST_AUTO_TEST_CASE(pipeline_segment_is_read_as_the_library_reads_it) {
  BOOST_TEST(cb::pipeline_segment_bytes() == 65536u);
  ::setenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES", "4096", 1);
  BOOST_TEST(cb::pipeline_segment_bytes() == 4096u);
  // The library rejects these (and stops the run); the model must not read 1000.5 as 1000.
  for (const char* rejected : {"1000.5", "64K", "0", "-8", ""}) {
    ::setenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES", rejected, 1);
    BOOST_TEST(cb::pipeline_segment_bytes() == 65536u, rejected);
  }
  ::unsetenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
}

BOOST_AUTO_TEST_CASE(ping_pong_fit_recovers_alpha_and_beta) {
  std::vector<cb::pingpong_point> points;
  for (std::size_t b = 1; b <= (4u << 20); b *= 4)
    points.push_back({b, 1.5e-6 + static_cast<double>(b) * 0.2e-9});
  double alpha = 0, beta = 0;
  cb::fit_alpha_beta(points, alpha, beta);
  BOOST_TEST(alpha == 1.5e-6, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(beta == 0.2e-9, boost::test_tools::tolerance(1e-6));
}

// Across hosts (2 hosts × 2 ranks): messages within a host free, between hosts α_n = 1 s,
// β_n = 1 ms/B (the ping-pong between two hosts), n = 1024, whole blocks; each rank's messages
// have its host's link to themselves.
BOOST_AUTO_TEST_CASE(across_hosts_a_message_between_hosts_costs_the_ping_pong_between_them) {
  cb::host_links h;
  h.layout.hosts = 2;
  h.layout.ranks_per_host = 2;
  h.layout.host_of = {0, 0, 1, 1};
  h.alpha_inter = 1;
  h.beta_inter = 1e-3;
  const cb::cost_params free{0, 0, 0};
  const auto priced_across = [&](collective c, std::string_view a, double n = 1024) {
    const auto net = cb::measured_platform(free, c, 4, n, &h);
    BOOST_REQUIRE(net.has_value());
    const auto s = cb::priced_seconds(c, a, 4, static_cast<std::size_t>(n) / 4, 4, 0, 0, *net);
    BOOST_REQUIRE(s.has_value());
    return *s;
  };
  // Recursive doubling's step at distance 2 crosses: one pairing of n; Rabenseifner halves at
  // distance 1 first, so only its quarter-vector steps cross; the ring crosses at every step.
  BOOST_TEST(priced_across(collective::allreduce, "recursive_doubling") == 2 * (1 + 1.024),
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(priced_across(collective::allreduce, "rabenseifner") == 4 * (1 + 0.256),
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(priced_across(collective::allreduce, "ring") == 6 * (1 + 0.256),
             boost::test_tools::tolerance(1e-9));
  // Hierarchical on two ranks per host, the crossed ring: 2(H−1)(α_n + n/H·β_n), its header's line.
  BOOST_TEST(priced_across(collective::allreduce, "hierarchical", 65536) == 2 + 65.536,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(priced_across(collective::allreduce, "hierarchical") == 2 * (1 + 0.512),
             boost::test_tools::tolerance(1e-9));
  // Round-robin hosts: the step at distance 1 crosses instead.
  h.layout.host_of = {0, 1, 0, 1};
  h.layout.map = "cyclic";
  BOOST_TEST(priced_across(collective::allreduce, "recursive_doubling") == 2 * (1 + 1.024),
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(priced_across(collective::allreduce, "rabenseifner") == 4 * (1 + 0.512),
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(h.layout.tag() == "2x2-cyclic");
  // A layout neither consecutive nor round-robin has no price.
  h.layout.host_of = {0, 1, 1, 0};
  h.layout.map = "other";
  BOOST_TEST(!cb::measured_platform(free, collective::allreduce, 4, 1024, &h).has_value());
}

// model_us, the column: every row by its schedule, on one host and across hosts alike.
BOOST_AUTO_TEST_CASE(model_column_prices_every_row_by_its_schedule) {
  ::unsetenv("COLLBENCH_PLATFORM");
  cb::run_info info;
  info.ranks = 4;
  info.cores = 4;
  info.model = cb::machine{1e-6, 1e-9, 1e-9, 0, 0, {}, {}};
  const cb::cost_params m{1e-6, 1e-9, 0};
  const double ring = *priced(collective::allreduce, "ring", {4, 0, 1024, 256}, m);
  BOOST_TEST(*cb::model_us(collective::allreduce, "ring", info, 1024, 256) == ring * 1e6,
             boost::test_tools::tolerance(1e-9));
  for (const char* none : {"vendor", "automatic", "vendor:segmented_ring"})
    BOOST_TEST(!cb::model_us(collective::allreduce, none, info, 1024, 256).has_value(), none);
  // One rank per host: the run's own ping-pong is the one between hosts, and prices every message.
  info.hosts = cb::host_links{};
  info.hosts->layout = {4, 1, "block", {0, 1, 2, 3}};
  BOOST_TEST(*cb::model_us(collective::allreduce, "ring", info, 1024, 256) == ring * 1e6,
             boost::test_tools::tolerance(1e-9));
  // Two hosts of two: messages between them at the ping-pong between hosts, within as on one host.
  info.hosts->layout = {2, 2, "block", {0, 0, 1, 1}};
  info.hosts->alpha_inter = 1;
  info.hosts->beta_inter = 1e-3;
  BOOST_TEST(*cb::model_us(collective::allreduce, "recursive_doubling", info, 1024, 256) > 2e6);
  // E is the run's within a host, and between hosts its own: recursive doubling's exchange within a
  // host (distance 1) sends first on both sides below the first, one message instead of two.
  info.eager = collectives::eager_limits{4096, 1, false, ""};
  const double eager_within = *cb::model_us(collective::allreduce, "recursive_doubling", info, 8, 2);
  info.eager = collectives::eager_limits{1, 1, false, ""};
  BOOST_TEST(*cb::model_us(collective::allreduce, "recursive_doubling", info, 8, 2) - eager_within ==
                 (1e-6 + 8 * 1e-9) * 1e6,
             boost::test_tools::tolerance(1e-6));
  info.eager.reset();
  BOOST_TEST(!cb::model_us(collective::allreduce, "vendor", info, 1024, 256).has_value());
  // One rank: no model.
  info.ranks = 1;
  info.hosts.reset();
  BOOST_TEST(!cb::model_us(collective::allreduce, "ring", info, 1024, 256).has_value());
}

BOOST_AUTO_TEST_CASE(priced_rings_follow_the_transport_order) {
  const cb::cost_params m{1.0, 0.0, 0.0};  // every message costs 1, nothing else costs anything
  // A pairing costs two messages, whichever side sends first: p = 2, one step.
  BOOST_TEST(*priced(collective::allgather, "ring", {2, 0, 8, 2}, m) == 2.0);
  BOOST_TEST(*priced(collective::alltoall, "pairwise", {2, 0, 8, 2}, m) == 2.0);
  // S steps of the ring cost R(S) = 2S + ⌈2S/(p−1)⌉ messages for odd p (two adjacent ranks of the
  // cycle send first, and one waits a message longer), 2S for even p: allgather S = p − 1,
  // allreduce S = 2(p − 1).
  const auto R = [](int p, int steps) { return 2.0 * steps + (p % 2 == 1 ? std::ceil(2.0 * steps / (p - 1)) : 0.0); };
  for (int p = 2; p <= 11; ++p) {
    const auto P = static_cast<std::size_t>(p);
    BOOST_TEST(*priced(collective::allgather, "ring", {p, 0, 8.0 * p, 2 * P}, m) == R(p, p - 1), "p = " << p);
    BOOST_TEST(*priced(collective::allreduce, "ring", {p, 0, 8.0 * p, 2 * P}, m) == R(p, 2 * (p - 1)),
               "p = " << p);
  }
}

BOOST_AUTO_TEST_CASE(priced_exchanges_take_the_measured_exchange_and_share_the_cores) {
  // Every message costs 1; an exchange that both partners send first (at most E) was measured at 1.5.
  cb::cost_params m{1.0, 0.0, 0.0};
  const collectives::eager_limits e{64, 64};
  m.exchange = {{1, 1.5}, {64, 1.5}};
  // Recursive doubling's one exchange at p = 2: the measured exchange below E, two ordered messages above.
  BOOST_TEST(*priced(collective::allreduce, "recursive_doubling", {2, 0, 8, 2}, m, 64) == 1.5);
  BOOST_TEST(*priced(collective::allreduce, "recursive_doubling", {2, 0, 128, 32}, m, 64) == 2.0);
  // Unmeasured (a file from before): one message.
  cb::cost_params unmeasured = m;
  unmeasured.exchange.clear();
  BOOST_TEST(*priced(collective::allreduce, "recursive_doubling", {2, 0, 8, 2}, unmeasured, 64) == 1.0);
  // So is every step of a ring below E, odd p too: both partners send first, so no rank of the
  // cycle waits for another's send.
  for (int p : {4, 5}) {
    const auto P = static_cast<std::size_t>(p);
    BOOST_TEST(*priced(collective::allgather, "ring", {p, 0, 8.0 * p, 2 * P}, unmeasured, 64) == p - 1.0);
    BOOST_TEST(*priced(collective::allreduce, "ring", {p, 0, 8.0 * p, 2 * P}, unmeasured, 64) ==
               2 * (p - 1.0));
  }
  // p = 4 on 2 cores: two steps of 1.5 on the critical path, but 8 exchanged messages of 1.5 of work
  // shared by 2 cores take 6; on 4 cores the critical path's 3.
  auto net = cb::measured_platform(m, collective::allreduce, 4, 8, nullptr, &e);
  BOOST_REQUIRE(net.has_value());
  net->cores = 2;
  BOOST_TEST(*cb::priced_seconds(collective::allreduce, "recursive_doubling", 4, 2, 4, 0, 0, *net) == 6.0);
  net->cores = 4;
  BOOST_TEST(*cb::priced_seconds(collective::allreduce, "recursive_doubling", 4, 2, 4, 0, 0, *net) == 3.0);
}

BOOST_AUTO_TEST_CASE(a_simgrid_platform_file_gives_its_links_and_smpis_settings) {
  const std::string dir = std::string(COLLECTIVES_SOURCE_DIR) + "/scripts/mpirun/platforms/";
  const auto tolerance = boost::test_tools::tolerance(1e-9);
  const cb::schedule::platform net = cb::simgrid_platform(dir + "fat-tree-256.xml");
  BOOST_TEST(net.name == "fat-tree-256");
  BOOST_TEST(net.hosts == 256);
  BOOST_TEST(net.hosts_per_switch == 16);
  BOOST_TEST(net.link_latency == 0.5e-6, tolerance);
  BOOST_TEST(net.link_byte == 1 / 12.5e9, tolerance);
  BOOST_TEST(net.send_overhead == 0.5e-6, tolerance);
  BOOST_TEST(net.recv_overhead == 0.5e-6, tolerance);
  BOOST_TEST(net.eager_bytes == 65535u);  // below smpi/send-is-detached-thresh
  BOOST_TEST(net.eager_across == 65535u);
  BOOST_TEST(net.sharing_bytes == 8775.0);  // the SMPI network model's weight-S
  BOOST_TEST(net.eager_moves_at_match);
  BOOST_TEST(cb::simgrid_platform(dir + "torus-512.xml").torus == std::vector<int>({8, 8, 8}));
  BOOST_CHECK_THROW(cb::simgrid_platform(dir + "no-such-platform.xml"), collectives::error);
  // A platform whose hosts name the library's eager limit below SMPI's detached sizes (collcalibrate's).
  const cb::schedule::platform named =
      cb::simgrid_platform(std::string(COLLECTIVES_SOURCE_DIR) + "/tests/calibrate/named-eager.xml");
  BOOST_TEST(named.eager_bytes == 16383u);
  BOOST_TEST(named.eager_across == 16383u);
  // Above E an exchange with another host goes in segments of E, both sides sending first: a
  // 1 MiB block each way at p = 2 takes about one message time, where the ordered exchange (one
  // side after the other) takes two.
  const double message = 2 * net.link_latency + (1 << 20) * net.link_byte;
  const double exchange =
      *cb::priced_seconds(collective::allgather, "recursive_doubling", 2, 1 << 20, 1, 0, 0, net);
  BOOST_TEST(exchange > message);
  BOOST_TEST(exchange < 1.5 * message);
}
