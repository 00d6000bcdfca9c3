// SPDX-License-Identifier: BSD-3-Clause
// colltune's verdicts on runs whose times are written by hand (no MPI launch). The rule: a decision
// is kept only where every run of every timing agrees by more than the measured noise (each run's
// ratio of the two sides beyond 1 + 3%, and each timing's median beyond 1 + that timing's noise: how
// far the ratio moved between its runs, at least 3%). "fastest": the side ahead of the other so;
// where neither is, the side whose worst timing is better (the largest of the timings' median ratios
// to the other side; on a tie the library, as automatic); "collectives": an algorithm replaces the
// built-in rule's choice only where it is ahead of it so, else the rule's choice stays. Each range says why. The tables load, and fastest_choice and
// automatic_choice follow them; runs without vendor rows give a table without the "fastest"
// section, where fastest_choice is automatic's choice.

#define BOOST_TEST_MODULE colltune
#include <boost/test/unit_test.hpp>

#include "tune_test.hpp"

namespace {

// Allreduce at p = 2: every library algorithm takes 100 µs in both runs (no spread), so the library's
// choice is the built-in rule's and costs 100 µs; vendor's medians per size, run 1 and run 2
// (nothing: not measured).
struct vendor_times {
  std::size_t bytes;
  std::optional<std::pair<double, double>> us;
  const char* verdict;  // what the section must say, and why
  const char* by;
};
const std::vector<vendor_times> sizes{
    {8, {{50, 52}}, "vendor", "vendor: ahead"},  // median 0.51 × 1.03 (the floor) < 1
    // 2% faster: within the 3% floor, not ahead; vendor's worst timing (0.98) is better than the
    // library's (1 ÷ 0.98).
    {64, {{98, 98}}, "vendor", "vendor: neither side ahead"},
    {512, {{80, 120}}, "library", "library: neither side ahead"},   // 0.8 and 1.2: a tie, as automatic
    {1024, {{98, 140}}, "library", "library: neither side ahead"},  // median 1.19
    {4096, {}, "library", "library: vendor not measured"},          // no vendor row
    // Vendor ahead in both runs (0.4 and 0.9), but their median 0.65 is not below 1 ÷ (1 + 62.5%
    // noise: run 1 moved 0.65 ÷ 0.4 from it): not ahead, yet its worst timing is the better.
    {16384, {{40, 90}}, "vendor", "vendor: neither side ahead"},
    {32768, {{40, 41}}, "vendor", "vendor: ahead"},
    {262144, {{150, 150}}, "library", "library: ahead"},   // 1.5 in both runs
    {524288, {{110, 150}}, "library", "library: ahead"},   // median 1.3 > 1 + 18% noise (1.3 ÷ 1.1)
    {1048576, {{106, 104}}, "library", "library: ahead"},  // 1.04 > 1.03: the noise (1%) is below the floor
    {2097152, {{102, 102}}, "library", "library: neither side ahead"},  // 2% slower: within the floor
    // 1.5 and 2.5: both runs ahead by more than the floor, and their median 2.0 beyond 1 + the noise
    // (33%: 2.0 ÷ 1.5): the advantage moved between the runs, its sign did not.
    {4194304, {{150, 250}}, "library", "library: ahead"},
};

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

}  // namespace

BOOST_AUTO_TEST_CASE(fastest_takes_the_side_ahead_else_the_one_whose_worst_timing_is_better) {
  const scratch s;
  const fs::path out = s.dir / "table.json";
  const json table = colltune({write_run(s.dir, 0, true), write_run(s.dir, 1, true)}, out);
  BOOST_REQUIRE(table.contains("fastest"));
  BOOST_TEST(table.at("provenance").contains("fastest_rule"));
  const json& ranges = table.at("fastest").at("allreduce").at("2");
  // Per size: the verdict, the reason, and vendor's time (the least of its medians) where measured.
  const auto seen = fastest_points(table);
  BOOST_REQUIRE_EQUAL(seen.size(), sizes.size());
  for (const vendor_times& v : sizes) {
    const auto& [verdict, point] = seen.at(v.bytes);
    BOOST_TEST(verdict == v.verdict, v.bytes << " bytes");
    BOOST_TEST(point.at("by").get<std::string>().starts_with(v.by), v.bytes << " bytes: " << point.at("by"));
    BOOST_TEST(point.at("library_us").get<double>() == 100.0);
    BOOST_TEST(point.contains("vendor_us") == v.us.has_value(), v.bytes << " bytes");
    if (v.us) {
      BOOST_TEST(point.at("vendor_us").get<double>() == std::min(v.us->first, v.us->second));
      BOOST_TEST(point.at("vendor_spread").get<double>() ==
                     (std::max(v.us->first, v.us->second) / std::min(v.us->first, v.us->second) - 1),
                 boost::test_tools::tolerance(1e-9));
      // Each run's ratio vendor ÷ library, and the noise: how far a run's ratio moved from their
      // median (of two runs, their mean: the lesser run moved furthest as a factor), ≥ 3%.
      const json& ratios = point.at("ratios").at("synchronized");
      BOOST_TEST_REQUIRE(ratios.size() == 2u);
      BOOST_TEST(ratios[0].get<double>() == v.us->first / 100, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(ratios[1].get<double>() == v.us->second / 100, boost::test_tools::tolerance(1e-9));
      const double least = std::min(v.us->first, v.us->second);
      const double moved = (v.us->first + v.us->second) / 2 / least - 1;
      BOOST_TEST(point.at("noise").get<double>() == std::max(0.03, moved),
                 boost::test_tools::tolerance(1e-9));
    }
  }
  // Ranges: boundaries at the geometric middle of the sizes either side, as the library's; a range
  // ends where the verdict or its reason changes, and says why.
  const json expected =
      json::array({json::array({0, 22, "vendor", "vendor: ahead"}),
                   json::array({23, 181, "vendor", "vendor: neither side ahead"}),
                   json::array({182, 2048, "library", "library: neither side ahead"}),
                   json::array({2049, 8192, "library", "library: vendor not measured"}),
                   json::array({8193, 23170, "vendor", "vendor: neither side ahead"}),
                   json::array({23171, 92681, "vendor", "vendor: ahead"}),
                   json::array({92682, 1482910, "library", "library: ahead"}),
                   json::array({1482911, 2965820, "library", "library: neither side ahead"}),
                   json::array({2965821, nullptr, "library", "library: ahead"})});
  BOOST_TEST_REQUIRE(ranges.size() == expected.size(), ranges.dump());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    const json& r = ranges[i];
    BOOST_TEST(r.at("min_bytes") == expected[i][0], i);
    BOOST_TEST(r.at("max_bytes") == expected[i][1], i);
    BOOST_TEST(r.at("fastest") == expected[i][2], i);
    BOOST_TEST(r.at("why").get<std::string>().starts_with(expected[i][3].get<std::string>()),
               i << ": " << r.at("why"));
  }

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

// Runs through the drop-in (tune.sh: a pmpi row) are read so: vendor's time is the pmpi row's
// (PMPI_*), the library's the vendor row's (MPI_* served by the drop-in, its own cost included). And
// every timing must agree: the synchronized runs have their say too.
BOOST_AUTO_TEST_CASE(runs_through_the_drop_in_read_pmpi_as_vendor) {
  const scratch s;
  std::vector<std::tuple<std::string, std::size_t, double>> sync;
  for (std::size_t bytes : {std::size_t{8}, std::size_t{512}, std::size_t{4096}, std::size_t{8192}}) {
    sync.emplace_back("vendor", bytes, bytes == 8 ? 100 : bytes == 8192 ? 80 : 150);
    for (algorithm a : collectives::algorithms_for(collective::allreduce))
      if (a != algorithm::vendor && a != algorithm::hierarchical) sync.emplace_back(to_string(a), bytes, 100);
  }
  const std::string run = write_rows(s.dir, "sync", "synchronized", sync);
  // 8 B: the drop-in serves in 100, PMPI_* takes 90 (synchronized: alike): neither ahead in every
  // timing; vendor's worst (1.0) is better than the library's (1.11): vendor.
  // 512 B: the drop-in 50, PMPI_* 100 (synchronized: the library 1.5× faster): the library.
  // 4096 B: the drop-in 100, PMPI_* 80 (synchronized: the library 1.5× faster): they disagree;
  // vendor's worst (1.5) is no better than the library's (1.25): the library. 8192 B: the drop-in 100, PMPI_* 80 (synchronized: vendor 1.25× faster):
  // vendor.
  const std::string b2b = write_rows(s.dir, "b2b", "back-to-back",
                                     {{"vendor", 8, 100},
                                      {"pmpi", 8, 90},
                                      {"vendor", 512, 50},
                                      {"pmpi", 512, 100},
                                      {"vendor", 4096, 100},
                                      {"pmpi", 4096, 80},
                                      {"vendor", 8192, 100},
                                      {"pmpi", 8192, 80}});
  const json table = colltune({run, b2b}, s.dir / "t.json");
  const auto seen = fastest_points(table);
  BOOST_TEST(seen.at(8).first == "vendor");
  BOOST_TEST(seen.at(8).second.at("vendor_us").get<double>() == 90.0);
  BOOST_TEST(seen.at(8).second.at("library_us").get<double>() == 100.0);
  BOOST_TEST(seen.at(8).second.at("by").get<std::string>().starts_with("vendor: neither side ahead"));
  BOOST_TEST(seen.at(512).first == "library");
  BOOST_TEST(seen.at(512).second.at("timing") == "back-to-back");
  BOOST_TEST(seen.at(512).second.at("ratios").at("back-to-back")[0].get<double>() == 2.0);
  BOOST_TEST(seen.at(512).second.at("ratios").at("synchronized")[0].get<double>() == 1.5);
  BOOST_TEST(seen.at(4096).first == "library");
  BOOST_TEST(seen.at(4096).second.at("by").get<std::string>().starts_with("library: neither side ahead"));
  BOOST_TEST(seen.at(8192).first == "vendor");
  BOOST_TEST(seen.at(8192).second.at("vendor_us").get<double>() == 80.0);
  BOOST_TEST(seen.at(8192).second.at("by").get<std::string>().starts_with("vendor: ahead"));
  BOOST_TEST(table.at("provenance").at("fastest_timing").get<std::string>().find("through the drop-in") !=
             std::string::npos);
}

// gatherv, scatterv and alltoallv have no per-size choice (their counts are not known alike on every
// rank): from the runs timed as applications see calls, one "fastest" verdict for every size per
// process count, from each run's geometric mean over the sizes of vendor ÷ library by the same rule
// as a size's, even where one size says otherwise. The drop-in asks at 0 bytes.
BOOST_AUTO_TEST_CASE(collectives_without_a_size_choice_get_one_verdict_for_every_size) {
  const scratch s;
  const std::string sync = write_run(s.dir, 0, true);
  const auto write = [&](const std::string& mode,
                         const std::vector<std::tuple<std::string, std::string, std::size_t, double>>& list) {
    collbench::run_info info = test_info("by hand, " + mode);
    info.timing_mode = mode;
    std::vector<collbench::row> rows;
    for (const auto& [coll, label, bytes, us] : list) {
      rows.push_back(make_row(label, bytes, us));
      rows.back().collective = coll;
      rows.back().timing = mode;
    }
    const fs::path path = s.dir / (mode + ".json");
    std::ofstream file(path);
    collbench::write_json(file, info, rows);
    return path.string();
  };
  // gatherv: vendor half of automatic's time at 8 B, 10% slower at 1 MiB: 0.74 in geometric mean.
  // alltoallv: vendor 2% faster at 8 B, 6% slower at 1 MiB: 1.02 in geometric mean, within the
  // floor; vendor's worst timing is no better than the library's: the library.
  // scatterv: vendor 1.2× slower back to back, 1.1× as IMB times: the library.
  // allgatherv... not by size only when skewed: left to the synchronized rows here.
  const std::string b2b = write("back-to-back", {{"gatherv", "vendor", 8, 50},
                                                 {"gatherv", "automatic", 8, 100},
                                                 {"gatherv", "vendor", 1 << 20, 110},
                                                 {"gatherv", "automatic", 1 << 20, 100},
                                                 {"alltoallv", "vendor", 8, 98},
                                                 {"alltoallv", "automatic", 8, 100},
                                                 {"alltoallv", "vendor", 1 << 20, 106},
                                                 {"alltoallv", "automatic", 1 << 20, 100},
                                                 {"scatterv", "vendor", 8, 120},
                                                 {"scatterv", "automatic", 8, 100}});
  const std::string imb = write("imb", {{"scatterv", "vendor", 8, 110}, {"scatterv", "automatic", 8, 100}});
  const json table = colltune({sync, b2b, imb}, s.dir / "t.json");
  BOOST_TEST(!table.at("collectives").contains("gatherv"));
  const json& gatherv = table.at("fastest").at("gatherv").at("2");
  BOOST_TEST_REQUIRE(gatherv.size() == 1u);
  BOOST_TEST(gatherv[0].at("min_bytes") == 0);
  BOOST_TEST(gatherv[0].at("max_bytes").is_null());
  BOOST_TEST(gatherv[0].at("fastest") == "vendor");
  BOOST_TEST(gatherv[0].at("why").get<std::string>().starts_with("vendor: ahead"));
  BOOST_TEST(gatherv[0].at("points").size() == 2u);
  BOOST_TEST(gatherv[0].at("points")[1].at("vendor_ratio").get<double>() == 1.1);
  const json& alltoallv = table.at("fastest").at("alltoallv").at("2");
  BOOST_TEST_REQUIRE(alltoallv.size() == 1u);
  BOOST_TEST(alltoallv[0].at("fastest") == "library");
  BOOST_TEST(alltoallv[0].at("why").get<std::string>().starts_with("library: neither side ahead"));
  const json& scatterv = table.at("fastest").at("scatterv").at("2");
  BOOST_TEST_REQUIRE(scatterv.size() == 1u);
  BOOST_TEST(scatterv[0].at("fastest") == "library");
  BOOST_TEST(scatterv[0].at("points")[0].at("timing") == "imb");  // the times shown: IMB's first

  collectives::load_tuning((s.dir / "t.json").string());
  BOOST_TEST(collectives::fastest_choice({.coll = collective::gatherv, .p = 2, .bytes = 64}) ==
             algorithm::vendor);
  BOOST_TEST(collectives::fastest_choice({.coll = collective::alltoallv, .p = 2, .bytes = 64}) ==
             collectives::automatic_choice({.coll = collective::alltoallv, .p = 2, .bytes = 64}));
  BOOST_TEST(collectives::fastest_choice({.coll = collective::scatterv, .p = 2, .bytes = 64}) ==
             collectives::automatic_choice({.coll = collective::scatterv, .p = 2, .bytes = 64}));
  collectives::clear_tuning();
}
