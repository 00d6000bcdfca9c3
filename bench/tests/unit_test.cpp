// SPDX-License-Identifier: BSD-3-Clause
// collbench's pieces that need no MPI run, the measuring and reporting side: bus-bandwidth factors,
// message shapes, sizes, options and their errors, Open MPI 4.1's emulated decision, and the
// CSV/JSON writers. The model's tests are in unit_model_test.cpp, of the same program.

#define BOOST_TEST_MODULE collbench_unit
#include <fmt/format.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <collectives/algorithm.hpp>
#include <nlohmann/json.hpp>
#include <numeric>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "model/model.hpp"
#include "report/output.hpp"
#include "vendors/ompi41.hpp"

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

namespace {

// One allreduce row and the run it belongs to, for the writers' cases below.
cb::row sample_row() {
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
  return r;
}

cb::row sample_back_to_back_row() {
  cb::row b2b = sample_row();
  b2b.timing = "back-to-back";
  b2b.batch = 16;
  return b2b;
}

cb::run_info sample_info() {
  cb::run_info info;
  info.ranks = 4;
  info.model = cb::machine{1e-6, 1e-9, 0.5e-9, 1e-10, 5e9, {{1, 1e-6}}, {{1, 0.9e-6}}};
  info.shm_copy = {"single", "cma", "Open MPI's btl_vader_single_copy_mechanism, read through MPI_T"};
  return info;
}

}  // namespace

BOOST_AUTO_TEST_CASE(csv_writer) {
  const cb::row r = sample_row();
  std::ostringstream csv;
  cb::write_csv(csv, std::vector<cb::row>{r});
  BOOST_TEST(
      csv.str() ==
      "collective,algorithm,ranks,bytes,count,type,median_us,min_us,max_us,algbw_GBps,busbw_GBps,vs_vendor,"
      "wrong,shm_copy,timing\nallreduce,ring,4,1024,256,float,10.000,9.000,12.000,0.1024,0.1536,1.25,0,"
      "single,synchronized\n");
  // A back-to-back row says so.
  std::ostringstream b2b_csv;
  cb::write_csv(b2b_csv, std::vector<cb::row>{sample_back_to_back_row()}, false);
  BOOST_TEST(b2b_csv.str().ends_with(",single,back-to-back\n"), b2b_csv.str());
  // A ratio far below 1 (vendor slowed down by a loaded machine) keeps four significant digits.
  cb::row fast = r;
  fast.vs_vendor = 0.0052498;
  std::ostringstream small;
  cb::write_csv(small, std::vector<cb::row>{fast}, false);
  BOOST_TEST(small.str().find(",0.00525,") != std::string::npos, small.str());
}

BOOST_AUTO_TEST_CASE(json_writer_round_trip) {
  std::stringstream json;
  cb::write_json(json, sample_info(), std::vector<cb::row>{sample_row()});
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
}

// The timing mode and the batch travel too, and a file without them reads as synchronized.
BOOST_AUTO_TEST_CASE(json_writer_timing_mode_and_batch) {
  cb::run_info b2b_info = sample_info();
  b2b_info.timing_mode = "back-to-back";
  std::stringstream b2b_json;
  cb::write_json(b2b_json, b2b_info, std::vector<cb::row>{sample_back_to_back_row()});
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
}

// A row left out travels with its reason, and the table says it; the table names the
// shared-memory path.
BOOST_AUTO_TEST_CASE(left_out_rows_and_the_table_header) {
  const cb::row r = sample_row();
  const cb::run_info info = sample_info();
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
}

// A file of collbench before the path was recorded reads as "unknown", rows included.
// (nlohmann sorts keys: "shm_copy" is never first in its object, so a comma precedes it.)
BOOST_AUTO_TEST_CASE(json_reader_of_a_file_without_the_shared_memory_path) {
  std::stringstream json;
  cb::write_json(json, sample_info(), std::vector<cb::row>{sample_row()});
  std::istringstream older(
      std::regex_replace(json.str(), std::regex(R"(,\s*"shm_copy":\s*(\{[^}]*\}|"[a-z]*"))"), ""));
  const cb::run_results before = cb::read_json(older);
  BOOST_TEST(before.info.shm_copy.path == "unknown");
  BOOST_TEST(before.rows[0].shm_copy == "unknown");
}
