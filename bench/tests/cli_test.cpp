// SPDX-License-Identifier: BSD-3-Clause
// collbench run as a user runs it (scripts/mpirun/run -n p collbench ...): its CSV and JSON parse
// and carry the promised columns, busbw follows algbw by each collective's factor, --check counts
// elements corrupted on purpose (COLLBENCH_TEST_CORRUPT, the test-only hook), and bad options
// exit with 2 and a message.

#define BOOST_TEST_MODULE collbench_cli
#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <collectives/algorithm.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "report/output.hpp"

using collectives::collective;
namespace fs = std::filesystem;

namespace {

constexpr int ranks = 3;  // not a power of two, and the busbw factors are not 0, 1 or 2
const std::string quick = "-b 64 -e 4K --step 8 --time-per-size 0.02 --min-iterations 2 -q";

struct outcome {
  int status;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

outcome launch(int np, const std::string& args, const std::string& env = "") {
  const fs::path dir = fs::temp_directory_path() / fmt::format("collbench_cli_{}", ::getpid());
  fs::create_directories(dir);
  const std::string command =
      fmt::format("{} '{}' -n {} '{}' {} > '{}' 2> '{}'", env, COLLBENCH_MPIRUN, np, COLLBENCH_EXE, args,
                  (dir / "out").string(), (dir / "err").string());
  const int raw = std::system(command.c_str());
  outcome o{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err")};
  fs::remove_all(dir);
  return o;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.emplace_back();
  return parts;
}

using record = std::map<std::string, std::string>;

std::vector<record> parse_csv(const std::string& text) {
  std::vector<std::string> lines = split(text, '\n');
  BOOST_TEST_REQUIRE(!lines.empty());
  BOOST_TEST_REQUIRE(lines.front() == std::string(collbench::csv_header));
  const std::vector<std::string> columns = split(lines.front(), ',');
  std::vector<record> rows;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    const std::vector<std::string> fields = split(lines[i], ',');
    BOOST_TEST_REQUIRE(fields.size() == columns.size(), lines[i]);
    record r;
    for (std::size_t k = 0; k < columns.size(); ++k) r[columns[k]] = fields[k];
    rows.push_back(r);
  }
  return rows;
}

double num(const record& r, const std::string& column) { return std::stod(r.at(column)); }

// nccl-tests' factors, written out independently of metrics.cpp.
double expected_factor(collective c, double p) {
  if (c == collective::allreduce) return 2 * (p - 1) / p;
  if (c == collective::barrier) return 0;  // time only
  if (c == collective::broadcast || c == collective::reduce || c == collective::scan ||
      c == collective::exscan)
    return 1;
  return (p - 1) / p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(csv_has_the_columns_and_consistent_numbers) {
  const outcome o = launch(ranks, quick + " -f csv");
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  const std::vector<record> rows = parse_csv(o.out);
  BOOST_TEST_REQUIRE(!rows.empty());

  std::map<std::pair<std::string, std::string>, double> vendor_median;  // (collective, bytes)
  for (const record& r : rows)
    if (r.at("algorithm") == "vendor")
      vendor_median[{r.at("collective"), r.at("bytes")}] = num(r, "median_us");

  std::map<std::string, std::set<std::string>> seen;  // collective → algorithms
  for (const record& r : rows) {
    const collective c = collectives::parse_collective(r.at("collective")).value();
    const std::string what = r.at("collective") + " " + r.at("algorithm") + " " + r.at("bytes");
    seen[r.at("collective")].insert(r.at("algorithm"));
    BOOST_TEST(num(r, "ranks") == ranks);
    BOOST_TEST(r.at("type") == "float");
    BOOST_TEST(num(r, "count") * 4 == num(r, "bytes"), what);
    if (collbench::counts_whole_array(c)) BOOST_TEST(std::stoul(r.at("count")) % ranks == 0u, what);
    BOOST_TEST(num(r, "min_us") <= num(r, "median_us"), what);
    BOOST_TEST(num(r, "median_us") <= num(r, "max_us"), what);
    BOOST_TEST(num(r, "wrong") == 0, what);
    const double algbw = num(r, "algbw_GBps"), busbw = num(r, "busbw_GBps");
    BOOST_TEST(algbw == num(r, "bytes") / (num(r, "median_us") * 1e3), boost::test_tools::tolerance(2e-3));
    BOOST_TEST(busbw == algbw * expected_factor(c, ranks), boost::test_tools::tolerance(1e-4));
    const double vendor = vendor_median.at({r.at("collective"), r.at("bytes")});
    // The CSV prints vs_vendor with 4 decimals: a row far faster than vendor (0.0064) is exact only
    // to that rounding, ±0.00005, whatever its relative error.
    const double ratio = num(r, "median_us") / vendor;
    BOOST_TEST(std::abs(num(r, "vs_vendor") - ratio) <= std::max(5e-3 * ratio, 5e-5 + 1e-9),
               what << ": vs_vendor " << r.at("vs_vendor") << ", median ÷ vendor's " << ratio);
    if (r.at("algorithm") == "vendor") BOOST_TEST(num(r, "vs_vendor") == 1.0);
    BOOST_TEST(r.at("timing") == "synchronized", what);  // the default
  }
  // Every collective, with every algorithm the library has for it.
  for (collective c : collectives::all_collectives())
    for (collectives::algorithm a : collectives::algorithms_for(c))
      BOOST_TEST(seen[std::string(to_string(c))].contains(std::string(to_string(a))),
                 to_string(c) << " lacks " << to_string(a));
}

BOOST_AUTO_TEST_CASE(json_parses_and_carries_the_run_and_the_model) {
  const outcome o = launch(ranks, quick + " -f json --model -c allreduce,alltoall");
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  const nlohmann::json doc = nlohmann::json::parse(o.out);
  for (const char* key : {"version", "mpi_library", "ranks", "cores", "oversubscribed", "type", "op", "root",
                          "check", "timing", "start", "vendor_internals"})
    BOOST_TEST(doc.at("collbench").contains(key), key);
  const nlohmann::json& start = doc.at("collbench").at("start");
  BOOST_TEST(start.at("offset_error_us").get<double>() == 0);  // one node: every rank reads rank 0's clock
  BOOST_TEST(start.at("margin_us").get<double>() > 0);
  BOOST_TEST(start.at("late_fraction").get<double>() >= 0);
  BOOST_TEST(start.at("late_fraction").get<double>() < 1);
  BOOST_TEST(doc.at("collbench").at("ranks").get<int>() == ranks);
  for (const char* key : {"alpha_us", "beta_GBps", "beta_clean_GBps", "gamma_GBps", "memcpy_GBps", "pingpong",
                          "pingpong_clean"})
    BOOST_TEST(doc.at("model").contains(key), key);
  BOOST_TEST(doc.at("model").at("beta_clean_GBps").get<double>() > 0);
  BOOST_TEST(doc.at("model").at("beta_GBps").get<double>() > 0);
  BOOST_TEST(doc.at("model").at("memcpy_GBps").get<double>() > 0);
  const std::vector<std::string> columns = split(std::string(collbench::csv_header), ',');
  BOOST_TEST_REQUIRE(!doc.at("results").empty());
  for (const nlohmann::json& r : doc.at("results")) {
    for (const std::string& column : columns) BOOST_TEST(r.contains(column), column);
    BOOST_TEST(r.at("late_fraction").get<double>() >= 0);
    // Every library algorithm has a schedule, so a price; vendor and automatic run none of their own.
    const std::string algorithm = r.at("algorithm").get<std::string>();
    if (algorithm == "vendor" || algorithm == "automatic")
      BOOST_TEST(r.at("model_us").is_null(), r.dump());
    else if (!algorithm.starts_with("vendor:"))
      BOOST_TEST(!r.at("model_us").is_null(), r.dump());
    BOOST_TEST(!r.at("busbw_of_memcpy").is_null());
  }
  std::istringstream again(o.out);
  BOOST_TEST(collbench::read_json(again).rows.size() == doc.at("results").size());
}

BOOST_AUTO_TEST_CASE(check_counts_results_corrupted_on_purpose) {
  const outcome o =
      launch(ranks, "-c gather,reduce,allreduce,broadcast -r 2 -b 256 -e 256 -n 2 -w 1 -q -f csv",
             "COLLBENCH_TEST_CORRUPT=naive,vendor:ring");
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  int corrupted = 0;
  for (const record& r : parse_csv(o.out)) {
    const std::string what = r.at("collective") + " " + r.at("algorithm");
    if (r.at("algorithm") == "naive" || r.at("algorithm") == "vendor:ring") {
      BOOST_TEST(num(r, "wrong") > 0, what);
      ++corrupted;
    } else {
      BOOST_TEST(num(r, "wrong") == 0, what);
    }
  }
  BOOST_TEST(corrupted >= 4);  // naive in each of the four collectives

  const outcome unchecked = launch(2, "-c allreduce -b 256 -e 256 -n 2 -w 1 -q -f csv --no-check");
  BOOST_TEST_REQUIRE(unchecked.status == 0, unchecked.err);
  for (const record& r : parse_csv(unchecked.out)) BOOST_TEST(r.at("wrong").empty());
}

namespace {

// A JSON run's row names by collective, each row's result checked (wrong = 0).
std::map<std::string, std::set<std::string>> checked_rows(const outcome& o) {
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  const nlohmann::json doc = nlohmann::json::parse(o.out);
  std::map<std::string, std::set<std::string>> rows;
  for (const nlohmann::json& r : doc.at("results")) {
    rows[r.at("collective").get<std::string>()].insert(r.at("algorithm").get<std::string>());
    BOOST_TEST(r.at("wrong") == 0, r.dump());
  }
  return rows;
}

}  // namespace

// -a pmpi: every collective by its profiling name (PMPI_…) beside vendor (MPI_…), its result
// checked against vendor's like any row's: a row that called another collective would be wrong.
BOOST_AUTO_TEST_CASE(pmpi_row_calls_each_collective_by_its_profiling_name) {
  const outcome o = launch(ranks, "-b 64 -e 64 -n 2 -w 1 -q -f json -a pmpi --skew 0.5");
  const std::map<std::string, std::set<std::string>> rows = checked_rows(o);
  BOOST_TEST(rows.size() == collectives::all_collectives().size());
  for (const auto& [collective, labels] : rows)
    BOOST_TEST((labels == std::set<std::string>{"vendor", "pmpi"}), collective);
}

// -a name:k: a radix-k algorithm at a radix of its own is a row of its own, named so, beside the
// algorithm at its default; its result checked like any row's.
BOOST_AUTO_TEST_CASE(a_radix_names_a_row_of_its_own) {
  const outcome o = launch(ranks,
                           "-c broadcast,allreduce,barrier -b 64 -e 64 -n 2 -w 1 -q -f json "
                           "-a knomial,knomial:2,recursive_multiplying:2,k_dissemination:3");
  const std::map<std::string, std::set<std::string>> rows = checked_rows(o);
  BOOST_TEST((rows.at("broadcast") == std::set<std::string>{"vendor", "knomial", "knomial:2"}));
  BOOST_TEST((rows.at("allreduce") == std::set<std::string>{"vendor", "recursive_multiplying:2"}));
  BOOST_TEST((rows.at("barrier") == std::set<std::string>{"vendor", "k_dissemination:3"}));
}

BOOST_AUTO_TEST_CASE(bad_options_exit_2_with_a_message) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"-a nosuch", "unknown algorithm 'nosuch'"},
      {"-b 100 -e 120", "size range empty"},
      {"-c scatter -a rabenseifner", "does not exist for scatter"},
      {"-c allreduce -a ring:4", "ring takes no radix in allreduce"},
      {"-c broadcast -a knomial:1", "unknown algorithm 'knomial:1'"},
      {"-c allreduce -a vendor:nosuch", "vendor:nosuch"},
      {"-r 5", "--root"},
      {"--output /nonexistent/dir/out.csv", "cannot write"},
      {"-c allreduce -b 8 -e 8 -n 2000000000 --time-per-size 0.01", "at most 1000000"},
      {"-c allreduce --timing sometimes", "--timing"},
      {"-c allreduce --batch 4", "only with --timing back-to-back or imb"},
      {"-c allreduce --timing back-to-back --batch -1", "--batch"},
  };
  for (const auto& [args, fragment] : cases) {
    const outcome o = launch(2, args);
    BOOST_TEST(o.status == 2, args << ": " << o.err);
    BOOST_TEST(o.err.find(fragment) != std::string::npos,
               args << ": stderr lacks '" << fragment << "': " << o.err);
    BOOST_TEST(o.out.empty(), args);
  }
}

// --help's lists and --list come from the library's tables: every collective for -c, every one that
// reduces for -o, every one with a root for -r; one --list line per collective naming
// algorithms_for() in order (then vendor:<name> internals, which tests/pmpi/check.sh help strips to
// compare with the drop-in's COLLECTIVES_ALGORITHMS=help).
BOOST_AUTO_TEST_CASE(help_and_list_name_every_collective) {
  const outcome help = launch(1, "--help");
  BOOST_TEST_REQUIRE(help.status == 0, help.err);
  std::string flat = help.out;  // CLI11 wraps long descriptions: compare with the line breaks removed
  for (std::size_t at; (at = flat.find('\n')) != std::string::npos;) {
    std::size_t end = at + 1;
    while (end < flat.size() && flat[end] == ' ') ++end;
    flat.replace(at, end - at, " ");
  }
  const auto names_where = [](auto keep) {
    std::string names;
    for (collective c : collectives::all_collectives())
      if (keep(c)) names += fmt::format("{}{}", names.empty() ? "" : ", ", to_string(c));
    return names;
  };
  BOOST_TEST(flat.find(names_where([](collective) { return true; })) != std::string::npos, "-c: " << flat);
  BOOST_TEST(
      flat.find(fmt::format("Reduction op ({})", names_where(collbench::reduces))) != std::string::npos,
      "-o: " << flat);
  BOOST_TEST(flat.find("scan, exscan") != std::string::npos);
  BOOST_TEST(flat.find(fmt::format("Root rank of {}", names_where(collbench::has_root))) !=
             std::string::npos);

  const outcome list = launch(2, "--list");
  BOOST_TEST_REQUIRE(list.status == 0, list.err);
  std::map<std::string, std::string> lines;
  for (const std::string& line : split(list.out, '\n'))
    if (const auto colon = line.find(": "); colon != std::string::npos) lines[line.substr(0, colon)] = line;
  for (collective c : collectives::all_collectives()) {
    std::string expected = fmt::format("{}:", to_string(c));
    for (collectives::algorithm a : collectives::algorithms_for(c))
      expected += fmt::format(" {}", to_string(a));
    const std::string& got = lines[std::string(to_string(c))];
    BOOST_TEST((got == expected || got.starts_with(expected + " vendor:")),
               "expected '" << expected << "', got '" << got << "'");
  }
}

BOOST_AUTO_TEST_CASE(table_shows_the_model_beside_the_measurement) {
  const outcome o = launch(2, "-c allreduce -b 1K -e 1K -n 3 -w 1 -q --model");
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  BOOST_TEST(o.out.find("model_us") != std::string::npos, o.out);
  BOOST_TEST(o.out.find("α =") != std::string::npos, o.out);
  BOOST_TEST(o.out.find("allreduce (2 ranks)") != std::string::npos, o.out);
}

// collreport --reprice prices every row again from the run's own measured machine: a run whose
// model_us were overwritten gets back what collbench wrote (the same model), and without
// --reprice the file's figures pass through untouched.
BOOST_AUTO_TEST_CASE(collreport_reprice_recomputes_the_model_from_the_run) {
  const outcome o =
      launch(2, "-c allreduce,alltoall,broadcast -b 64K -e 1M --step 4 -n 3 -w 1 -q -f json --model");
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  const nlohmann::json original = nlohmann::json::parse(o.out);
  nlohmann::json tampered = original;
  for (nlohmann::json& r : tampered.at("results"))
    if (!r.at("model_us").is_null()) r["model_us"] = 1e9;
  const fs::path dir = fs::temp_directory_path() / fmt::format("collreport_reprice_{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "np2.json") << tampered.dump(1);
  const auto report = [&](const std::string& flags) {
    const std::string out = (dir / "out").string();
    fs::remove_all(out);
    const std::string command = fmt::format("'{}' {} --out '{}' '{}' > /dev/null 2>&1", COLLREPORT_EXE, flags,
                                            out, (dir / "np2.json").string());
    BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0, command);
    return nlohmann::json::parse(slurp(dir / "out" / "results.json")).at("runs").at(0).at("results");
  };
  const nlohmann::json kept = report(""), repriced = report("--reprice");
  BOOST_TEST(slurp(dir / "out" / "report.md").find("--reprice") != std::string::npos);
  fs::remove_all(dir);
  const nlohmann::json& before = original.at("results");
  BOOST_TEST_REQUIRE(repriced.size() == before.size());
  int priced = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    BOOST_TEST(repriced[i].at("model_us").is_null() == before[i].at("model_us").is_null(), before[i].dump());
    if (before[i].at("model_us").is_null()) continue;
    ++priced;
    BOOST_TEST(kept[i].at("model_us").get<double>() == 1e9);
    BOOST_TEST(repriced[i].at("model_us").get<double>() == before[i].at("model_us").get<double>(),
               boost::test_tools::tolerance(1e-9));
  }
  BOOST_TEST(priced > 0);
}

// Identical algorithms must measure alike within one run, whatever is measured around them. At
// 8 B, automatic is binomial. Before the random order and the common start, automatic always ran
// right after scatter_allgather and binomial right after vendor: whichever followed
// scatter_allgather found its root leaving the barrier first, its message already waiting when
// the receiver started the clock, and measured a fraction of the other's time.
BOOST_AUTO_TEST_CASE(identical_algorithms_measure_alike_whatever_runs_around_them) {
  const outcome o = launch(2,
                           "-c broadcast -b 8 -e 8 -a binomial,scatter_allgather,automatic -w 100 -n 2000 "
                           "--time-per-size 2 --no-check -q -f csv");
  BOOST_TEST_REQUIRE(o.status == 0, o.err);
  std::map<std::string, double> median;
  for (const record& r : parse_csv(o.out)) median[r.at("algorithm")] = num(r, "median_us");
  BOOST_TEST_REQUIRE(median.contains("binomial"));
  BOOST_TEST_REQUIRE(median.contains("automatic"));
  const double ratio = median["automatic"] / median["binomial"];
  BOOST_TEST((ratio > 0.5 && ratio < 2), "automatic " << median["automatic"] << " µs, binomial "
                                                      << median["binomial"] << " µs: " << o.out);
}

namespace {

// collbench's options of the back-to-back case below, but the format.
const std::string back_to_back_options =
    "-c broadcast,allreduce -b 64 -e 1M --step 128 --time-per-size 0.05 --min-iterations 2 "
    "-q --timing back-to-back";

void check_back_to_back_csv() {
  const std::string& b2b = back_to_back_options;
  const outcome csv = launch(2, b2b + " -f csv");
  BOOST_TEST_REQUIRE(csv.status == 0, csv.err);
  const std::vector<record> rows = parse_csv(csv.out);
  BOOST_TEST_REQUIRE(!rows.empty());
  for (const record& r : rows) {
    const std::string what = r.at("collective") + " " + r.at("algorithm") + " " + r.at("bytes");
    BOOST_TEST(r.at("timing") == "back-to-back", what);
    BOOST_TEST(num(r, "median_us") > 0, what);
    BOOST_TEST(num(r, "min_us") <= num(r, "median_us"), what);
    BOOST_TEST(num(r, "median_us") <= num(r, "max_us"), what);
    BOOST_TEST(num(r, "wrong") == 0, what);  // the check runs as in synchronized mode
  }
}

// The JSON of a back-to-back run, checked, for collreport's check.
std::string check_back_to_back_json() {
  const std::string& b2b = back_to_back_options;
  const outcome json = launch(2, b2b + " -f json --batch 7 -a automatic");
  BOOST_TEST_REQUIRE(json.status == 0, json.err);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  BOOST_TEST(doc.at("collbench").at("timing_mode") == "back-to-back");
  BOOST_TEST(doc.at("collbench").at("start").is_null());
  BOOST_TEST(doc.at("collbench").at("timing").get<std::string>().find("back-to-back") != std::string::npos);
  std::set<std::string> labels;
  for (const nlohmann::json& r : doc.at("results")) {
    BOOST_TEST(r.at("timing") == "back-to-back");
    BOOST_TEST(r.at("batch") == 7);
    labels.insert(r.at("algorithm").get<std::string>());
  }
  BOOST_TEST((labels == std::set<std::string>{"vendor", "automatic"}));
  std::istringstream again(json.out);
  const collbench::run_results read = collbench::read_json(again);
  BOOST_TEST(read.info.timing_mode == "back-to-back");
  BOOST_TEST(read.rows.front().timing == "back-to-back");

  return json.out;
}

void check_the_automatic_batch() {
  const outcome automatic =
      launch(2, "-c allreduce -b 16M -e 16M -n 2 -w 0 -q -f json --timing back-to-back");
  BOOST_TEST_REQUIRE(automatic.status == 0, automatic.err);
  const nlohmann::json automatic_doc = nlohmann::json::parse(automatic.out);
  for (const nlohmann::json& r : automatic_doc.at("results"))
    BOOST_TEST(r.at("batch") == collbench::automatic_batch(16 << 20));
  BOOST_TEST(collbench::automatic_batch(16 << 20) == 2);
  BOOST_TEST(collbench::automatic_batch(8) == 100);
  BOOST_TEST(collbench::automatic_batch(1 << 20) == 32);
}

void check_the_table_header() {
  const outcome table = launch(2, "-c allreduce -b 1K -e 1K -n 3 -w 1 -q --timing back-to-back");
  BOOST_TEST_REQUIRE(table.status == 0, table.err);
  BOOST_TEST(table.out.find("# timing back-to-back:") != std::string::npos, table.out);
  BOOST_TEST(table.out.find("# start:") == std::string::npos, table.out);
  const outcome sync_table = launch(2, "-c allreduce -b 1K -e 1K -n 3 -w 1 -q");
  BOOST_TEST_REQUIRE(sync_table.status == 0, sync_table.err);
  BOOST_TEST(sync_table.out.find("# timing synchronized:") != std::string::npos, sync_table.out);
}

void check_collreport_section(const std::string& back_to_back_json) {
  // collreport: the back-to-back run gets its own section, set against the synchronized run.
  const outcome sync = launch(2,
                              "-c broadcast,allreduce -b 64 -e 1M --step 128 --time-per-size 0.05 "
                              "--min-iterations 2 -q -f json -a automatic");
  BOOST_TEST_REQUIRE(sync.status == 0, sync.err);
  const fs::path dir = fs::temp_directory_path() / fmt::format("collreport_b2b_{}", ::getpid());
  fs::create_directories(dir);
  std::ofstream(dir / "np2.json") << sync.out;
  std::ofstream(dir / "np2-back-to-back.json") << back_to_back_json;
  const std::string command =
      fmt::format("'{}' --out '{}' '{}' '{}' > /dev/null 2>&1", COLLREPORT_EXE, (dir / "out").string(),
                  (dir / "np2.json").string(), (dir / "np2-back-to-back.json").string());
  BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0, command);
  const std::string md = slurp(dir / "out" / "report.md");
  const std::string merged = slurp(dir / "out" / "results.csv");
  fs::remove_all(dir);
  BOOST_TEST(md.find("## Back to back: what applications see") != std::string::npos);
  BOOST_TEST(md.find("### allreduce, np = 2: back to back") != std::string::npos);
  BOOST_TEST(md.find("timing back-to-back") != std::string::npos);
  BOOST_TEST(md.find("timing synchronized") != std::string::npos);
  // The synchronized run alone makes the per-collective tables: one "### allreduce, np = 2" heading.
  std::size_t headings = 0;
  for (std::size_t at = md.find("\n### allreduce, np = 2\n"); at != std::string::npos;
       at = md.find("\n### allreduce, np = 2\n", at + 1))
    ++headings;
  BOOST_TEST(headings == 1u);
  const std::vector<record> all = parse_csv(merged);
  BOOST_TEST(std::count_if(all.begin(), all.end(),
                           [](const record& r) { return r.at("timing") == "back-to-back"; }) > 0);
  BOOST_TEST(std::count_if(all.begin(), all.end(),
                           [](const record& r) { return r.at("timing") == "synchronized"; }) > 0);
}

}  // namespace

// --timing back-to-back: batches of calls issued one after the other. Every output says so — the
// CSV's timing column, the JSON's run (timing_mode; no common start to describe) and rows (timing,
// batch), the table's header — the batch is --batch's or the automatic one (2 to 100 calls), and
// collreport puts such a run in a section of its own beside the synchronized run of the same np.
BOOST_AUTO_TEST_CASE(back_to_back_timing_is_said_in_every_output) {
  check_back_to_back_csv();
  const std::string json = check_back_to_back_json();
  check_the_automatic_batch();
  check_the_table_header();
  check_collreport_section(json);
}

// --timing imb: batches of calls each timed apart with a barrier after it, as IMB-MPI1 times a
// collective, the mean over ranks (IMB's t_avg). The mode runs and reports numbers (no timed
// assertion): every row a positive time in order min ≤ median ≤ max, checked (wrong = 0), labelled
// imb in the CSV, the JSON (run and rows, the batch) and the table's header; collreport heads its
// tables imb.
BOOST_AUTO_TEST_CASE(imb_timing_runs_and_reports_numbers) {
  const std::string imb =
      "-c broadcast,reduce,allreduce -b 64 -e 64K --step 32 --time-per-size 0.05 --min-iterations 2 -q "
      "--timing imb";
  const outcome csv = launch(2, imb + " -f csv");
  BOOST_TEST_REQUIRE(csv.status == 0, csv.err);
  const std::vector<record> rows = parse_csv(csv.out);
  BOOST_TEST_REQUIRE(!rows.empty());
  for (const record& r : rows) {
    const std::string what = r.at("collective") + " " + r.at("algorithm") + " " + r.at("bytes");
    BOOST_TEST(r.at("timing") == "imb", what);
    BOOST_TEST(num(r, "median_us") > 0, what);
    BOOST_TEST(num(r, "min_us") <= num(r, "median_us"), what);
    BOOST_TEST(num(r, "median_us") <= num(r, "max_us"), what);
    BOOST_TEST(num(r, "wrong") == 0, what);
  }
  const outcome json = launch(2, imb + " -f json --batch 5 -a automatic");
  BOOST_TEST_REQUIRE(json.status == 0, json.err);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  BOOST_TEST(doc.at("collbench").at("timing_mode") == "imb");
  BOOST_TEST(doc.at("collbench").at("start").is_null());
  BOOST_TEST(doc.at("collbench").at("timing").get<std::string>().find("IMB") != std::string::npos);
  for (const nlohmann::json& r : doc.at("results")) {
    BOOST_TEST(r.at("timing") == "imb");
    BOOST_TEST(r.at("batch") == 5);
    BOOST_TEST(r.at("median_us").get<double>() > 0);
  }
  const outcome table = launch(2, "-c allreduce -b 1K -e 1K -n 3 -w 1 -q --timing imb");
  BOOST_TEST_REQUIRE(table.status == 0, table.err);
  BOOST_TEST(table.out.find("# timing imb:") != std::string::npos, table.out);
  BOOST_TEST(table.out.find("# imb: ") != std::string::npos, table.out);

  const fs::path dir = fs::temp_directory_path() / fmt::format("collreport_imb_{}", ::getpid());
  fs::create_directories(dir);
  const outcome sync = launch(2, "-c allreduce -b 64 -e 64K --step 32 --time-per-size 0.05 -q -f json");
  BOOST_TEST_REQUIRE(sync.status == 0, sync.err);
  std::ofstream(dir / "np2.json") << sync.out;
  std::ofstream(dir / "np2-imb.json") << json.out;
  const std::string command =
      fmt::format("'{}' --out '{}' '{}' '{}' > /dev/null 2>&1", COLLREPORT_EXE, (dir / "out").string(),
                  (dir / "np2.json").string(), (dir / "np2-imb.json").string());
  BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0, command);
  const std::string md = slurp(dir / "out" / "report.md");
  fs::remove_all(dir);
  BOOST_TEST(md.find("### allreduce, np = 2: imb") != std::string::npos);
}
