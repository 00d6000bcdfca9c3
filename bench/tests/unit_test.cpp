// SPDX-License-Identifier: BSD-3-Clause
// collbench's pieces that need no MPI run: bus-bandwidth factors, message shapes, sizes, option
// errors, the model (the schedules priced on a measured machine and on a SimGrid platform file)
// and its fit, and the CSV/JSON writers.

#define BOOST_TEST_MODULE collbench_unit
#include <fmt/format.h>
#include <mpi.h>  // OMPI_MAJOR_VERSION: vendor_runs describes Open MPI's internals

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <collectives/algorithm.hpp>
#include <collectives/error.hpp>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/host_links.hpp"
#include "model/message_times.hpp"
#include "measure/metrics.hpp"
#include "model/model.hpp"
#include "vendors/ompi41.hpp"
#include "measure/options.hpp"
#include "report/output.hpp"
#include "model/price.hpp"
#include "model/simgrid_platform.hpp"
#include "measure/variants.hpp"

using collectives::collective;
namespace cb = collbench;

namespace {

// nccl-tests' factors, written out independently of metrics.cpp.
double expected_factor(collective c, double p) {
  if (c == collective::allreduce) return 2 * (p - 1) / p;
  if (c == collective::barrier) return 0;  // time only
  if (c == collective::broadcast || c == collective::reduce || c == collective::scan ||
      c == collective::exscan)
    return 1;
  return (p - 1) / p;
}

cb::parse_result parse(std::vector<std::string> args) {
  args.insert(args.begin(), "collbench");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return cb::parse_options(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

BOOST_AUTO_TEST_CASE(busbw_factor_of_every_collective) {
  for (collective c : collectives::all_collectives())
    for (int p : {1, 2, 3, 4, 5, 8, 64})
      BOOST_TEST(cb::busbw_factor(c, p) == expected_factor(c, p), to_string(c) << " at p = " << p);
  BOOST_TEST(cb::busbw_factor(collective::allreduce, 4) == 1.5);
  BOOST_TEST(cb::busbw_factor(collective::alltoall, 4) == 0.75);
  BOOST_TEST(cb::busbw_factor(collective::broadcast, 4) == 1.0);
}

BOOST_AUTO_TEST_CASE(message_shape_counts_the_whole_array_where_nccl_tests_does) {
  // allreduce: the vector; 1 KiB of 4-byte elements.
  const auto v = cb::shape(collective::allreduce, 1024, 4, 3);
  BOOST_TEST_REQUIRE(v.has_value());
  BOOST_TEST(v->bytes == 1024u);
  BOOST_TEST(v->count == 256u);
  BOOST_TEST(v->call_count == 256u);
  // allgather at p = 3: 256 elements in all → blocks of 85, 255 elements, 1020 bytes.
  const auto a = cb::shape(collective::allgather, 1024, 4, 3);
  BOOST_TEST_REQUIRE(a.has_value());
  BOOST_TEST(a->call_count == 85u);
  BOOST_TEST(a->count == 255u);
  BOOST_TEST(a->bytes == 1020u);
  // Not even one element per rank: skipped.
  BOOST_TEST(!cb::shape(collective::alltoall, 8, 4, 4).has_value());
  BOOST_TEST(!cb::shape(collective::broadcast, 2, 4, 4).has_value());
  for (collective c : collectives::all_collectives())
    BOOST_TEST(cb::counts_whole_array(c) ==
               (c == collective::scatter || c == collective::gather || c == collective::allgather ||
                c == collective::reduce_scatter || c == collective::alltoall || c == collective::gatherv ||
                c == collective::scatterv || c == collective::allgatherv || c == collective::alltoallv ||
                c == collective::reduce_scatterv));
}

BOOST_AUTO_TEST_CASE(skewed_blocks_sum_to_the_whole_and_grow_with_the_rank) {
  for (int p : {1, 2, 3, 4, 7, 8})
    for (double skew : {0.0, 0.5, 1.0, 3.0, 100.0})
      for (std::size_t total :
           {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{12345}}) {
        const std::vector<std::size_t> counts = cb::v_counts(total, p, skew);
        BOOST_TEST_REQUIRE(counts.size() == static_cast<std::size_t>(p));
        BOOST_TEST(std::accumulate(counts.begin(), counts.end(), std::size_t{0}) == total);
        if (skew == 0 && total % static_cast<std::size_t>(p) == 0)
          BOOST_TEST(std::count(counts.begin(), counts.end(), total / static_cast<std::size_t>(p)) == p);
        if (p > 1 && total >= 1000) BOOST_TEST(counts.back() + 1 >= counts.front());
      }
  // Skew 1 at p = 3: weights 1, 1.5, 2 of 4.5.
  BOOST_TEST(cb::v_counts(900, 3, 1.0) == (std::vector<std::size_t>{200, 300, 400}));
}

BOOST_AUTO_TEST_CASE(sizes_and_their_spelling) {
  BOOST_TEST(cb::parse_size("8").value() == 8u);
  BOOST_TEST(cb::parse_size("4K").value() == 4096u);
  BOOST_TEST(cb::parse_size("4KiB").value() == 4096u);
  BOOST_TEST(cb::parse_size("16M").value() == (16u << 20));
  BOOST_TEST(cb::parse_size("1g").value() == (1u << 30));
  BOOST_TEST(!cb::parse_size("").has_value());
  BOOST_TEST(!cb::parse_size("K").has_value());
  BOOST_TEST(!cb::parse_size("12Q").has_value());
  BOOST_TEST(cb::format_size(8) == "8 B");
  BOOST_TEST(cb::format_size(16u << 20) == "16 MiB");
  BOOST_TEST(cb::format_size(1536) == "1536 B");

  const cb::parse_result r = parse({});
  BOOST_TEST_REQUIRE(r.run);
  const std::vector<std::size_t> sizes = r.opts.sizes();
  BOOST_TEST(sizes.size() == 22u);  // 8 B … 16 MiB
  BOOST_TEST(sizes.front() == 8u);
  BOOST_TEST(sizes.back() == (16u << 20));
  const cb::parse_result q = parse({"-b", "5", "-e", "1K", "--step", "4"});
  BOOST_TEST_REQUIRE(q.run);
  BOOST_TEST(q.opts.sizes() == (std::vector<std::size_t>{8, 32, 128, 512}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(defaults) {
  const cb::parse_result r = parse({});
  BOOST_TEST_REQUIRE(r.run);
  BOOST_TEST(r.opts.collectives.size() == collectives::all_collectives().size());
  BOOST_TEST(r.opts.algorithms == std::vector<std::string>{"all"}, boost::test_tools::per_element());
  BOOST_TEST(r.opts.check);
  BOOST_TEST(!r.opts.model);
  BOOST_TEST((r.opts.format == cb::output_format::table));
  const cb::parse_result f = parse({"--output", "x.csv"});
  BOOST_TEST((f.opts.format == cb::output_format::csv));
  const cb::parse_result n =
      parse({"--no-check", "-c", "allreduce,broadcast", "-a", "naive", "-a", "vendor:ring"});
  BOOST_TEST_REQUIRE(n.run);
  BOOST_TEST(!n.opts.check);
  BOOST_TEST(n.opts.collectives.size() == 2u);
  BOOST_TEST(n.opts.algorithms.size() == 2u);
  // A repeated collective is measured once.
  const cb::parse_result twice = parse({"-c", "allreduce,broadcast,allreduce"});
  BOOST_TEST_REQUIRE(twice.run);
  BOOST_TEST(
      twice.opts.collectives == (std::vector<collective>{collective::allreduce, collective::broadcast}),
      boost::test_tools::per_element());
  BOOST_TEST(parse({"-n", "1000000", "-w", "-1"}).run);
  // Timing: synchronized unless asked; back to back with an automatic or a given batch.
  BOOST_TEST((r.opts.timing == cb::timing_mode::synchronized));
  BOOST_TEST(r.opts.batch == 0);
  const cb::parse_result b = parse({"--timing", "back-to-back", "--batch", "16"});
  BOOST_TEST_REQUIRE(b.run);
  BOOST_TEST((b.opts.timing == cb::timing_mode::back_to_back));
  BOOST_TEST(b.opts.batch == 16);
  BOOST_TEST(to_string(b.opts.timing) == "back-to-back");
  BOOST_TEST(to_string(cb::timing_mode::synchronized) == "synchronized");
  // As IMB-MPI1 times: batched too, --batch allowed.
  const cb::parse_result imb = parse({"--timing", "imb", "--batch", "5"});
  BOOST_TEST_REQUIRE(imb.run);
  BOOST_TEST((imb.opts.timing == cb::timing_mode::imb));
  BOOST_TEST(imb.opts.batch == 5);
  BOOST_TEST(to_string(imb.opts.timing) == "imb");
  // The automatic batch: as many calls as move 32 MiB, from 2 to 100.
  BOOST_TEST(cb::automatic_batch(0) == 100);
  BOOST_TEST(cb::automatic_batch(8) == 100);
  BOOST_TEST(cb::automatic_batch(std::size_t{1} << 20) == 32);
  BOOST_TEST(cb::automatic_batch(std::size_t{16} << 20) == 2);
  BOOST_TEST(cb::automatic_batch(std::size_t{1} << 30) == 2);
}

BOOST_AUTO_TEST_CASE(bad_options_exit_2_with_a_message) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"-a", "fastest"}, "unknown algorithm 'fastest'"},
      {{"-b", "100", "-e", "120"}, "size range empty"},
      {{"-b", "1M", "-e", "1K"}, "size range empty"},
      {{"-c", "allsum"}, "unknown collective 'allsum'"},
      {{"-t", "half"}, "unknown type 'half'"},
      {{"-o", "avg"}, "unknown op 'avg'"},
      {{"-t", "double", "-o", "bxor"}, "needs an integer type"},
      {{"-e", "4G"}, "at most 1 GiB"},
      {{"--step", "3"}, "--step"},
      {{"-b", "eight"}, "not a size"},
      {{"-f", "xml"}, "xml"},
      {{"--no-such-option"}, "--no-such-option"},
      {{"-w", "-5"}, "--warmup"},
      {{"--step", "-2"}, "given -2"},
      {{"-n", "2000000000"}, "at most 1000000"},
      {{"--timing", "async"}, "--timing"},
      {{"--batch", "8"}, "only with --timing back-to-back or imb"},
      {{"--timing", "back-to-back", "--batch", "-3"}, "--batch"},
  };
  for (const auto& [args, fragment] : cases) {
    const cb::parse_result r = parse(args);
    BOOST_TEST(!r.run, args.front());
    BOOST_TEST(r.exit_code == 2, args.front());
    BOOST_TEST(r.message.find(fragment) != std::string::npos, r.message << " lacks '" << fragment << "'");
  }
  const cb::parse_result help = parse({"--help"});
  BOOST_TEST(!help.run);
  BOOST_TEST(help.exit_code == 0);
  BOOST_TEST(help.message.find("--time-per-size") != std::string::npos);
}

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

// Open MPI 4.1's fixed decision (coll_tuned_decision_fixed.c at v4.1.4), read by hand at points
// on both sides of its thresholds, and the algorithms' own fallbacks.
BOOST_AUTO_TEST_CASE(ompi41_decision_follows_open_mpi_4_1) {
  struct point {
    collective c;
    int p;
    std::size_t count, element;
    std::string_view open_mpi, smpi;
    bool exact;
  };
  const point points[] = {
      // allreduce, p < 4: ring below 8 B, recursive doubling to 4 KiB, …, rabenseifner from 256 KiB.
      {collective::allreduce, 2, 1, 4, "ring", "rdb", true},  // fewer elements than ranks
      {collective::allreduce, 2, 2, 4, "recursive_doubling", "rdb", true},
      {collective::allreduce, 3, 1024, 4, "ring", "lr", false},  // 4 KiB, 1024 % 3 ≠ 0
      {collective::allreduce, 2, 65536 / 4, 4, "segmented_ring", "lr", true},
      {collective::allreduce, 2, 262144 / 4, 4, "rabenseifner", "rab_rdb", true},
      // p 4–7: ring below 16 B (here 2 floats on 4 ranks: recursive doubling), rabenseifner from 8 KiB.
      {collective::allreduce, 4, 2, 4, "ring", "rdb", true},
      {collective::allreduce, 4, 2047, 4, "recursive_doubling", "rdb", true},
      {collective::allreduce, 4, 2048, 4, "rabenseifner", "rab_rdb", true},
      {collective::allreduce, 300, 512, 4, "nonoverlapping", "redbcast", false},
      // broadcast
      {collective::broadcast, 2, 8, 1, "pipeline", "flattree", true},
      {collective::broadcast, 3, 8, 1, "pipeline", "ompi_pipeline", true},
      {collective::broadcast, 3, 1 << 20, 1, "binary_tree", "flattree", true},
      {collective::broadcast, 4, 16 << 20, 1, "chain", "ompi_pipeline", false},
      {collective::broadcast, 4, 1024, 1, "binary_tree", "NTSB", true},
      {collective::broadcast, 4, 4096, 1, "binomial", "binomial_tree", true},
      {collective::broadcast, 4, 65536, 1, "basic_linear", "flattree", true},
      {collective::broadcast, 2, 512, 1, "knomial", "flattree", true},
      {collective::broadcast, 8, 4, 1, "knomial", "mvapich2_knomial_intra_node", true},
      {collective::broadcast, 20, 1 << 20, 1, "scatter_allgather", "scatter_rdb_allgather", true},
      // allgather: two_proc on 2 ranks, recursive doubling below 32 (Bruck's off powers of two)
      {collective::allgather, 2, 1 << 20, 1, "two_proc", "ring", true},
      {collective::allgather, 6, 8, 1, "recursive_doubling", "bruck", true},
      {collective::allgather, 8, 8, 1, "recursive_doubling", "rdb", true},
      {collective::allgather, 40, 2048, 1, "neighbor", "ompi_neighborexchange", true},
      // reduce_scatter (MPI_Reduce_scatter_block), by one rank's block
      {collective::reduce_scatter, 2, 1, 2, "recursive_doubling", "mpich_rdb", true},
      {collective::reduce_scatter, 2, 1, 4, "butterfly", "ompi_butterfly", true},
      {collective::reduce_scatter, 4, 2, 4, "recursive_doubling", "mpich_rdb", true},
      {collective::reduce_scatter, 4, 1 << 18, 4, "basic_linear", "default", false},
      {collective::reduce_scatter, 4, 1 << 10, 4, "recursive_halving", "ompi_basic_recursivehalving", true},
      // alltoall: two_proc and pairwise on 2 ranks, linear_sync and linear, pairwise at 512 KiB on 6
      {collective::alltoall, 2, 1, 2, "two_proc", "ring", true},
      {collective::alltoall, 2, 1, 8, "pairwise", "ring", true},
      {collective::alltoall, 4, 2, 4, "linear_sync", "basic_linear", true},
      {collective::alltoall, 4, 2048, 4, "linear", "basic_linear", true},
      {collective::alltoall, 6, 1 << 17, 4, "pairwise", "ring", true},
      {collective::alltoall, 40, 8, 1, "modified_bruck", "bruck", true},
  };
  for (const point& x : points) {
    const auto d = cb::ompi41_decision(x.c, x.p, x.count, x.element);
    const std::string where = fmt::format("{} p = {} {} B", to_string(x.c), x.p, x.count * x.element);
    BOOST_TEST_REQUIRE(d.has_value(), where);
    BOOST_TEST(d->open_mpi == x.open_mpi, where << ": " << d->open_mpi);
    BOOST_TEST(d->smpi == x.smpi, where << ": " << d->smpi);
    BOOST_TEST(d->exact == x.exact, where);
  }
  // Every size on every rank count has a choice; the other collectives none.
  for (collective c : collectives::all_collectives()) {
    const bool covered = c == collective::broadcast || c == collective::allgather ||
                         c == collective::reduce_scatter || c == collective::alltoall ||
                         c == collective::allreduce;
    for (int p : {2, 3, 5, 64, 1000, 5000})
      for (std::size_t count = 1; count <= (64u << 20); count *= 8) {
        const auto d = cb::ompi41_decision(c, p, count, 1);
        BOOST_TEST(d.has_value() == covered, to_string(c));
        if (d) BOOST_TEST(!d->smpi.empty());
      }
  }
}

BOOST_AUTO_TEST_CASE(csv_and_json_writers) {
  cb::row r;
  r.collective = "allreduce";
  r.algorithm = "ring";
  r.ranks = 4;
  r.bytes = 1024;
  r.count = 256;
  r.type = "float";
  r.median_us = 10, r.min_us = 9, r.max_us = 12;
  r.iterations = 5;
  r.algbw_GBps = 0.1024;
  r.busbw_GBps = 0.1536;
  r.vs_vendor = 1.25;
  r.wrong = 0;
  r.model_us = 8.5;
  r.shm_copy = "single";
  std::ostringstream csv;
  cb::write_csv(csv, std::vector<cb::row>{r});
  BOOST_TEST(
      csv.str() ==
      "collective,algorithm,ranks,bytes,count,type,median_us,min_us,max_us,algbw_GBps,busbw_GBps,vs_vendor,"
      "wrong,shm_copy,timing\nallreduce,ring,4,1024,256,float,10.000,9.000,12.000,0.1024,0.1536,1.25,0,"
      "single,synchronized\n");
  // A back-to-back row says so.
  cb::row b2b = r;
  b2b.timing = "back-to-back";
  b2b.batch = 16;
  std::ostringstream b2b_csv;
  cb::write_csv(b2b_csv, std::vector<cb::row>{b2b}, false);
  BOOST_TEST(b2b_csv.str().ends_with(",single,back-to-back\n"), b2b_csv.str());
  // A ratio far below 1 (vendor slowed down by a loaded machine) keeps four significant digits.
  cb::row fast = r;
  fast.vs_vendor = 0.0052498;
  std::ostringstream small;
  cb::write_csv(small, std::vector<cb::row>{fast}, false);
  BOOST_TEST(small.str().find(",0.00525,") != std::string::npos, small.str());

  cb::run_info info;
  info.ranks = 4;
  info.model = cb::machine{1e-6, 1e-9, 0.5e-9, 1e-10, 5e9, {{1, 1e-6}}, {{1, 0.9e-6}}};
  info.shm_copy = {"single", "cma", "Open MPI's btl_vader_single_copy_mechanism, read through MPI_T"};
  std::stringstream json;
  cb::write_json(json, info, std::vector<cb::row>{r});
  const cb::run_results back = cb::read_json(json);
  BOOST_TEST_REQUIRE(back.rows.size() == 1u);
  BOOST_TEST(back.rows[0].algorithm == "ring");
  BOOST_TEST(back.rows[0].busbw_GBps == 0.1536);
  BOOST_TEST(back.rows[0].model_us.value() == 8.5);
  BOOST_TEST(!back.rows[0].busbw_of_memcpy.has_value());
  BOOST_TEST(back.info.model->alpha == 1e-6, boost::test_tools::tolerance(1e-9));
  // Both ping-pongs travel: the model prices a message by their points.
  BOOST_TEST(back.info.model->beta_clean == 0.5e-9, boost::test_tools::tolerance(1e-9));
  BOOST_TEST_REQUIRE(back.info.model->pingpong_clean.size() == 1u);
  BOOST_TEST(back.info.model->pingpong_clean[0].seconds == 0.9e-6, boost::test_tools::tolerance(1e-9));
  // The shared-memory path travels in the run's description and on every row.
  BOOST_TEST(back.info.shm_copy.path == "single");
  BOOST_TEST(back.info.shm_copy.mechanism == "cma");
  BOOST_TEST(back.rows[0].shm_copy == "single");
  // So do the timing mode and the batch, and a file without them reads as synchronized.
  cb::run_info b2b_info = info;
  b2b_info.timing_mode = "back-to-back";
  std::stringstream b2b_json;
  cb::write_json(b2b_json, b2b_info, std::vector<cb::row>{b2b});
  const cb::run_results b2b_back = cb::read_json(b2b_json);
  BOOST_TEST(b2b_back.info.timing_mode == "back-to-back");
  BOOST_TEST(b2b_back.rows.at(0).timing == "back-to-back");
  BOOST_TEST(b2b_back.rows.at(0).batch == 16);
  nlohmann::json old_file = nlohmann::json::parse(b2b_json.str());
  old_file.at("collbench").erase("timing_mode");
  old_file.at("collbench").erase("left_out");
  old_file.at("results").at(0).erase("timing");
  old_file.at("results").at(0).erase("batch");
  std::stringstream old_text(old_file.dump());
  const cb::run_results old_back = cb::read_json(old_text);
  BOOST_TEST(old_back.info.timing_mode == "synchronized");
  BOOST_TEST(old_back.rows.at(0).timing == "synchronized");
  BOOST_TEST(old_back.rows.at(0).batch == 1);
  BOOST_TEST(old_back.info.left_out.empty());
  // A row left out travels with its reason, and the table says it.
  cb::run_info left_info = info;
  left_info.left_out = {{"broadcast", "vendor:impi", "SimGrid's bcast impi truncates a receive"}};
  std::stringstream left_json;
  cb::write_json(left_json, left_info, std::vector<cb::row>{r});
  BOOST_TEST(cb::read_json(left_json).info.left_out == left_info.left_out);
  std::ostringstream left_table;
  cb::write_table(left_table, left_info, std::vector<cb::row>{r});
  BOOST_TEST(left_table.str().find(
                 "# left out: broadcast vendor:impi: SimGrid's bcast impi truncates a receive\n") !=
             std::string::npos);
  std::ostringstream table;
  cb::write_table(table, info, std::vector<cb::row>{r});
  BOOST_TEST(
      table.str().find("# shared memory: single copy (cma); Open MPI's btl_vader_single_copy_mechanism") !=
      std::string::npos);

  // A file of collbench before the path was recorded reads as "unknown", rows included.
  // (nlohmann sorts keys: "shm_copy" is never first in its object, so a comma precedes it.)
  std::istringstream older(
      std::regex_replace(json.str(), std::regex(R"(,\s*"shm_copy":\s*(\{[^}]*\}|"[a-z]*"))"), ""));
  const cb::run_results before = cb::read_json(older);
  BOOST_TEST(before.info.shm_copy.path == "unknown");
  BOOST_TEST(before.rows[0].shm_copy == "unknown");
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
