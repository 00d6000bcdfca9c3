// SPDX-License-Identifier: BSD-3-Clause
// colltune's choices on runs whose times are written by hand (no MPI launch): vendor's time is
// recorded at every size, and the table's "fastest" section says vendor only where vendor's least
// median beats the library's choice by more than 3% (a spread over the runs does not widen it); the
// library keeps sizes where vendor is slower, faster only within the 3%, or not measured. The
// table loads, and fastest_choice follows it; runs without vendor rows give a table without the
// section, where fastest_choice is automatic's choice.

#define BOOST_TEST_MODULE colltune
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <collectives/tuning.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "output.hpp"

using collectives::algorithm;
using collectives::collective;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Allreduce at p = 2: every library algorithm takes 100 µs in both runs (no spread), so the library's
// choice costs 100 µs; vendor's medians per size, run 1 and run 2 (nothing: not measured).
struct vendor_times {
  std::size_t bytes;
  std::optional<std::pair<double, double>> us;
  const char* verdict;  // what the section must say, and why
  const char* by;
};
const std::vector<vendor_times> sizes{
    {8, {{50, 52}}, "vendor", "vendor: faster beyond the noise"},               // 52 < 100 / 1.04
    {64, {{98, 98}}, "library", "library: vendor faster within the noise"},     // 2% < the 3% floor
    {512, {{80, 120}}, "vendor", "vendor: faster beyond the noise"},            // 50% spread: no matter
    {1024, {{98, 140}}, "library", "library: vendor faster within the noise"},  // nor here
    {4096, {}, "library", "library: vendor not measured"},                      // no vendor row
    {32768, {{40, 41}}, "vendor", "vendor: faster beyond the noise"},           // 41 < 100 / 1.03
    {262144, {{150, 150}}, "library", "library: faster"},                       // vendor slower
};

collbench::row make_row(const std::string& alg, std::size_t bytes, double us) {
  collbench::row r;
  r.collective = "allreduce";
  r.algorithm = alg;
  r.ranks = 2;
  r.bytes = bytes;
  r.count = bytes / 4;
  r.type = "float";
  r.median_us = r.min_us = r.max_us = us;
  r.iterations = 5;
  r.wrong = 0;
  return r;
}

// A run's header at p = 2, float sum, timed as `timing` says.
collbench::run_info test_info(const std::string& timing) {
  collbench::run_info info;
  info.version = "test";
  info.mpi_library = "test MPI";
  info.host = "test";
  info.date = "2026-11-26";
  info.ranks = 2;
  info.cores = 2;
  info.type = "float";
  info.op = "sum";
  info.timing = timing;
  return info;
}

// Writes run `run` (0 or 1), with or without vendor's rows, and returns its path.
std::string write_run(const fs::path& dir, int run, bool with_vendor) {
  const collbench::run_info info = test_info("by hand");
  std::vector<collbench::row> rows;
  for (const vendor_times& s : sizes) {
    if (with_vendor && s.us)
      rows.push_back(make_row("vendor", s.bytes, run == 0 ? s.us->first : s.us->second));
    for (algorithm a : collectives::algorithms_for(collective::allreduce))
      if (a != algorithm::vendor && a != algorithm::hierarchical)
        rows.push_back(make_row(std::string(to_string(a)), s.bytes, 100));
  }
  const fs::path path = dir / fmt::format("run{}{}.json", run, with_vendor ? "" : "-novendor");
  std::ofstream out(path);
  collbench::write_json(out, info, rows);
  return path.string();
}

struct scratch {
  fs::path dir = fs::temp_directory_path() / fmt::format("colltune-test-{}", getpid());
  scratch() { fs::create_directories(dir); }
  ~scratch() { fs::remove_all(dir); }
};

json colltune(const std::vector<std::string>& runs, const fs::path& out) {
  std::string command = fmt::format("{} --out {}", COLLTUNE_EXE, out.string());
  for (const std::string& r : runs) command += " " + r;
  const int status = std::system(command.c_str());
  BOOST_REQUIRE_MESSAGE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, command << " failed");
  json table;
  std::ifstream(out) >> table;
  return table;
}

}  // namespace

BOOST_AUTO_TEST_CASE(vendor_is_fastest_only_where_clear_of_the_noise) {
  const scratch s;
  const fs::path out = s.dir / "table.json";
  const json table = colltune({write_run(s.dir, 0, true), write_run(s.dir, 1, true)}, out);
  BOOST_REQUIRE(table.contains("fastest"));
  BOOST_TEST(table.at("provenance").contains("fastest_rule"));
  const json& ranges = table.at("fastest").at("allreduce").at("2");
  // Per size: the verdict, the reason, and vendor's time (the least of its medians) where measured.
  std::map<std::size_t, std::pair<std::string, json>> seen;
  for (const json& r : ranges)
    for (const json& p : r.at("points"))
      seen[p.at("bytes").get<std::size_t>()] = {r.at("fastest").get<std::string>(), p};
  BOOST_REQUIRE_EQUAL(seen.size(), sizes.size());
  for (const vendor_times& v : sizes) {
    const auto& [verdict, point] = seen.at(v.bytes);
    BOOST_TEST(verdict == v.verdict, v.bytes << " bytes");
    BOOST_TEST(point.at("by") == v.by, v.bytes << " bytes: " << point.at("by"));
    BOOST_TEST(point.at("library_us").get<double>() == 100.0);
    BOOST_TEST(point.contains("vendor_us") == v.us.has_value(), v.bytes << " bytes");
    if (v.us) {
      BOOST_TEST(point.at("vendor_us").get<double>() == std::min(v.us->first, v.us->second));
      BOOST_TEST(point.at("vendor_spread").get<double>() ==
                     (std::max(v.us->first, v.us->second) / std::min(v.us->first, v.us->second) - 1),
                 boost::test_tools::tolerance(1e-9));
    }
  }
  // Ranges: boundaries at the geometric middle of the sizes either side, as the library's.
  const json expected =
      json::array({json::array({0, 22, "vendor"}), json::array({23, 181, "library"}),
                   json::array({182, 724, "vendor"}), json::array({725, 11585, "library"}),
                   json::array({11586, 92681, "vendor"}), json::array({92682, nullptr, "library"})});
  json got = json::array();
  for (const json& r : ranges)
    got.push_back(json::array({r.at("min_bytes"), r.at("max_bytes"), r.at("fastest")}));
  BOOST_TEST(got == expected, got.dump());

  // The library loads it, and fastest_choice follows it; automatic never returns vendor.
  collectives::load_tuning(out.string());
  for (const vendor_times& v : sizes) {
    const collectives::call_shape shape{.coll = collective::allreduce, .p = 2, .bytes = v.bytes};
    const algorithm automatic = collectives::automatic_choice(shape);
    BOOST_TEST(automatic != algorithm::vendor);
    BOOST_TEST(collectives::fastest_choice(shape) ==
                   (std::string(v.verdict) == "vendor" ? algorithm::vendor : automatic),
               v.bytes << " bytes");
  }
  collectives::clear_tuning();
}

BOOST_AUTO_TEST_CASE(runs_without_vendor_give_no_fastest_section) {
  const scratch s;
  const fs::path out = s.dir / "table.json";
  const json table = colltune({write_run(s.dir, 0, false), write_run(s.dir, 1, false)}, out);
  BOOST_TEST(!table.contains("fastest"));
  collectives::load_tuning(out.string());
  for (const vendor_times& v : sizes) {
    const collectives::call_shape shape{.coll = collective::allreduce, .p = 2, .bytes = v.bytes};
    BOOST_TEST(collectives::fastest_choice(shape) == collectives::automatic_choice(shape));
  }
  collectives::clear_tuning();
}

namespace {

// A run at p = 2 of allreduce with the given rows (label, bytes, µs), timed `mode`.
std::string write_rows(const fs::path& dir, const std::string& name, const std::string& mode,
                       const std::vector<std::tuple<std::string, std::size_t, double>>& rows) {
  collbench::run_info info = test_info("by hand, " + mode);
  info.timing_mode = mode;
  std::vector<collbench::row> out;
  for (const auto& [label, bytes, us] : rows) {
    out.push_back(make_row(label, bytes, us));
    out.back().timing = mode;
  }
  const fs::path path = dir / (name + ".json");
  std::ofstream file(path);
  collbench::write_json(file, info, out);
  return path.string();
}

}  // namespace

// Back-to-back runs through the drop-in (tune.sh: a pmpi row) are read so: vendor's time is the pmpi
// row's (PMPI_*), the library's the vendor row's (MPI_* served by the drop-in, its own cost included).
BOOST_AUTO_TEST_CASE(back_to_back_runs_through_the_drop_in_read_pmpi_as_vendor) {
  const scratch s;
  std::vector<std::tuple<std::string, std::size_t, double>> sync;
  for (std::size_t bytes : {std::size_t{8}, std::size_t{512}}) {
    sync.emplace_back("vendor", bytes, 100);
    for (algorithm a : collectives::algorithms_for(collective::allreduce))
      if (a != algorithm::vendor && a != algorithm::hierarchical) sync.emplace_back(to_string(a), bytes, 100);
  }
  const std::string run = write_rows(s.dir, "sync", "synchronized", sync);
  // 8 B: the drop-in serves in 100, PMPI_* takes 90: vendor. 512 B: the drop-in 50, PMPI_* 100.
  const std::string b2b =
      write_rows(s.dir, "b2b", "back-to-back",
                 {{"vendor", 8, 100}, {"pmpi", 8, 90}, {"vendor", 512, 50}, {"pmpi", 512, 100}});
  const json table = colltune({run, b2b}, s.dir / "t.json");
  std::map<std::size_t, std::pair<std::string, json>> seen;
  for (const json& r : table.at("fastest").at("allreduce").at("2"))
    for (const json& p : r.at("points")) seen[p.at("bytes").get<std::size_t>()] = {r.at("fastest"), p};
  BOOST_TEST(seen.at(8).first == "vendor");
  BOOST_TEST(seen.at(8).second.at("vendor_us").get<double>() == 90.0);
  BOOST_TEST(seen.at(8).second.at("library_us").get<double>() == 100.0);
  BOOST_TEST(seen.at(512).first == "library");
  BOOST_TEST(seen.at(512).second.at("timing") == "back-to-back");
  BOOST_TEST(table.at("provenance").at("fastest_timing").get<std::string>().find("through the drop-in") !=
             std::string::npos);
}

// gatherv, scatterv and alltoallv have no per-size choice (their counts are not known alike on every
// rank): from the back-to-back runs, one "fastest" verdict for every size per process count, vendor
// where its time ÷ automatic's is below 1 / 1.03 in geometric mean over the sizes, even where one
// size says otherwise. The drop-in asks at 0 bytes.
BOOST_AUTO_TEST_CASE(collectives_without_a_size_choice_get_one_verdict_for_every_size) {
  const scratch s;
  const std::string sync = write_run(s.dir, 0, true);
  collbench::run_info info = test_info("by hand, back-to-back");
  info.timing_mode = "back-to-back";
  std::vector<collbench::row> rows;
  const auto add = [&](const std::string& coll, const std::string& label, std::size_t bytes, double us) {
    rows.push_back(make_row(label, bytes, us));
    rows.back().collective = coll;
    rows.back().timing = "back-to-back";
  };
  // gatherv: vendor half of automatic's time at 8 B, 10% slower at 1 MiB: 0.74 in geometric mean.
  add("gatherv", "vendor", 8, 50);
  add("gatherv", "automatic", 8, 100);
  add("gatherv", "vendor", 1 << 20, 110);
  add("gatherv", "automatic", 1 << 20, 100);
  // alltoallv: vendor 2% faster at every size: within the noise.
  add("alltoallv", "vendor", 8, 98);
  add("alltoallv", "automatic", 8, 100);
  add("alltoallv", "vendor", 1 << 20, 98);
  add("alltoallv", "automatic", 1 << 20, 100);
  const fs::path b2b = s.dir / "b2b.json";
  {
    std::ofstream file(b2b);
    collbench::write_json(file, info, rows);
  }
  const json table = colltune({sync, b2b.string()}, s.dir / "t.json");
  BOOST_TEST(!table.at("collectives").contains("gatherv"));
  const json& gatherv = table.at("fastest").at("gatherv").at("2");
  BOOST_TEST_REQUIRE(gatherv.size() == 1u);
  BOOST_TEST(gatherv[0].at("min_bytes") == 0);
  BOOST_TEST(gatherv[0].at("max_bytes").is_null());
  BOOST_TEST(gatherv[0].at("fastest") == "vendor");
  BOOST_TEST(gatherv[0].at("points").size() == 2u);
  BOOST_TEST(gatherv[0].at("points")[1].at("vendor_ratio").get<double>() == 1.1);
  const json& alltoallv = table.at("fastest").at("alltoallv").at("2");
  BOOST_TEST_REQUIRE(alltoallv.size() == 1u);
  BOOST_TEST(alltoallv[0].at("fastest") == "library");

  collectives::load_tuning((s.dir / "t.json").string());
  BOOST_TEST(collectives::fastest_choice({.coll = collective::gatherv, .p = 2, .bytes = 64}) ==
             algorithm::vendor);
  BOOST_TEST(collectives::fastest_choice({.coll = collective::alltoallv, .p = 2, .bytes = 64}) ==
             collectives::automatic_choice({.coll = collective::alltoallv, .p = 2, .bytes = 64}));
  collectives::clear_tuning();
}

// With back-to-back runs beside the synchronized ones, the "fastest" section compares library and
// vendor back to back (what an application sees) and says so per point, while the choice among
// the library's algorithms stays the synchronized runs': the "collectives" section is the same as
// without them. Back to back, the library's time is the chosen algorithm's own row where the runs
// measured it, else automatic's.
BOOST_AUTO_TEST_CASE(back_to_back_runs_decide_vendor_against_the_library) {
  const scratch s;
  // Synchronized: every library algorithm 100 µs; vendor 50 µs at 8 B (clearly faster), 150 µs at
  // 256 KiB and 512 B (slower).
  std::vector<std::tuple<std::string, std::size_t, double>> sync;
  for (std::size_t bytes : {std::size_t{8}, std::size_t{512}, std::size_t{262144}}) {
    sync.emplace_back("vendor", bytes, bytes == 8 ? 50 : 150);
    for (algorithm a : collectives::algorithms_for(collective::allreduce))
      if (a != algorithm::vendor && a != algorithm::hierarchical) sync.emplace_back(to_string(a), bytes, 100);
  }
  const std::string run = write_rows(s.dir, "sync", "synchronized", sync);
  collectives::clear_tuning();
  const std::string chosen_512(
      to_string(collectives::automatic_choice({.coll = collective::allreduce, .p = 2, .bytes = 512})));
  // Back to back, the other way round: vendor slower at 8 B, clearly faster at 256 KiB; at 512 B
  // vendor beats automatic's row (90 against 100) but not the chosen algorithm's own (80), which counts.
  const std::string b2b = write_rows(s.dir, "b2b", "back-to-back",
                                     {{"vendor", 8, 120},
                                      {"automatic", 8, 100},
                                      {"vendor", 512, 90},
                                      {"automatic", 512, 100},
                                      {chosen_512, 512, 80},
                                      {"vendor", 262144, 60},
                                      {"automatic", 262144, 100}});
  const json alone = colltune({run}, s.dir / "alone.json");
  const json both = colltune({b2b, run}, s.dir / "both.json");
  BOOST_TEST(both.at("collectives") == alone.at("collectives"));
  BOOST_TEST(both.at("provenance").at("fastest_timing").get<std::string>().starts_with("back-to-back"));
  BOOST_TEST(alone.at("provenance").at("fastest_timing").get<std::string>().starts_with("synchronized"));
  BOOST_TEST(both.at("provenance").at("back_to_back_runs").at("2") == 1);

  const auto verdicts = [](const json& table) {
    std::map<std::size_t, std::pair<std::string, json>> seen;
    for (const json& r : table.at("fastest").at("allreduce").at("2"))
      for (const json& p : r.at("points"))
        seen[p.at("bytes").get<std::size_t>()] = {r.at("fastest").get<std::string>(), p};
    return seen;
  };
  const auto a = verdicts(alone), b = verdicts(both);
  BOOST_TEST(a.at(8).first == "vendor");
  BOOST_TEST(a.at(512).first == "library");
  BOOST_TEST(a.at(262144).first == "library");
  BOOST_TEST(a.at(8).second.at("timing") == "synchronized");
  BOOST_TEST(b.at(8).first == "library");
  BOOST_TEST(b.at(512).first == "library");
  BOOST_TEST(b.at(512).second.at("library_us").get<double>() == 80.0);
  BOOST_TEST(b.at(262144).first == "vendor");
  for (const auto& [bytes, verdict] : b) {
    BOOST_TEST(verdict.second.at("timing") == "back-to-back", bytes);
    BOOST_TEST(verdict.second.contains("synchronized_vendor_ratio"), bytes);
  }
  BOOST_TEST(b.at(8).second.at("synchronized_vendor_ratio").get<double>() == 0.5);

  // The library loads it, and fastest_choice follows the back-to-back verdicts.
  collectives::load_tuning((s.dir / "both.json").string());
  BOOST_TEST(collectives::fastest_choice({.coll = collective::allreduce, .p = 2, .bytes = 8}) ==
             collectives::automatic_choice({.coll = collective::allreduce, .p = 2, .bytes = 8}));
  BOOST_TEST(collectives::fastest_choice({.coll = collective::allreduce, .p = 2, .bytes = 262144}) ==
             algorithm::vendor);
  collectives::clear_tuning();

  // Back-to-back runs alone cannot choose among the library's algorithms: refused.
  const std::string command =
      fmt::format("{} --out {} {} 2> /dev/null", COLLTUNE_EXE, (s.dir / "none.json").string(), b2b);
  const int status = std::system(command.c_str());
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) != 0));
}
