// SPDX-License-Identifier: BSD-3-Clause
// automatic with a decision table (collectives/tuning.hpp): load_tuning refuses malformed tables
// with a message naming the file, the entry and the problem; the lookup (exact p, nearest measured
// p of the same kind, else the rule) and its fallbacks (non-commutative op, fewer elements than
// ranks, sizes not known alike); real calls follow the table, keyed by collbench's bytes; every
// rank chooses alike. Which algorithm a call ran is told by its messages: the calls to MPI_Send,
// MPI_Ssend and MPI_Recv on each rank, counted through the profiling interface, must match those of
// the algorithm run by name (and differ from those of the other candidate, so the check can fail).
//
// With COLLECTIVES_TUNING set (tests/tuning_roundtrip.sh: a table written by tune.sh), the first
// case checks that automatic follows that table at every size it measured at this p, the second
// that the table's "fastest" section (vendor's times) is there and that fastest_choice follows it.
//
// fastest_choice (the drop-in's `fastest`): vendor where the "fastest" section says so, automatic's
// choice elsewhere, by the same lookup; malformed "fastest" entries are refused like the rest, a
// table without the section (written before the tuner measured vendor) still loads, and automatic
// never chooses vendor.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <collectives/collectives.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/checks.hpp"
#include "support/pmpi_counters.hpp"

namespace {

using collectives::algorithm;
using collectives::call_shape;
using collectives::collective;
using json = nlohmann::json;

int world_rank() { return testing::rank_of(MPI_COMM_WORLD); }
int world_size() { return testing::size_of(MPI_COMM_WORLD); }

// A table file of this rank, removed at the end of the scope.
struct table_file {
  std::string path;
  explicit table_file(const std::string& text) {
    static int serial = 0;
    path = (std::filesystem::temp_directory_path() / ("collectives-tuning-test-" + std::to_string(getpid()) +
                                                      "-" + std::to_string(serial++) + ".json"))
               .string();
    std::ofstream(path) << text;
  }
  ~table_file() { std::filesystem::remove(path); }
};

// A well-formed table around `collectives` (the "collectives" object) and, if given, `fastest`.
std::string table_text(const json& collectives, const std::optional<json>& fastest = std::nullopt) {
  json t = {
      {"format", "collectives-tuning/1"}, {"provenance", {{"host", "test"}}}, {"collectives", collectives}};
  if (fastest) t["fastest"] = *fastest;
  return t.dump();
}

json verdict(std::size_t min, std::optional<std::size_t> max, const std::string& fastest) {
  return {{"min_bytes", min}, {"max_bytes", max ? json(*max) : json(nullptr)}, {"fastest", fastest}};
}

json range(std::size_t min, std::optional<std::size_t> max, const std::string& alg) {
  return {{"min_bytes", min}, {"max_bytes", max ? json(*max) : json(nullptr)}, {"algorithm", alg}};
}

// Loads `collectives` (and `fastest`) as this process's table (load_tuning reads it at once).
void load(const json& collectives, const std::optional<json>& fastest = std::nullopt) {
  const table_file f(table_text(collectives, fastest));
  collectives::load_tuning(f.path);
}

algorithm rule(const call_shape& s) {
  collectives::clear_tuning();
  return collectives::automatic_choice(s);
}

// What `call` does on the wire: per rank, its calls to MPI_Send and MPI_Ssend, and to MPI_Recv,
// gathered from every rank (the same vector on each).
template <class F>
std::vector<long> messages(F&& call) {
  pmpi_counters::reset();
  call();
  long mine[2] = {0, 0};
  for (const auto& [name, n] : pmpi_counters::calls()) {
    if (name == "MPI_Send" || name == "MPI_Ssend") mine[0] += n;
    if (name == "MPI_Recv") mine[1] += n;
  }
  std::vector<long> all(2 * static_cast<std::size_t>(world_size()));
  MPI_Allgather(mine, 2, MPI_LONG, all.data(), 2, MPI_LONG, MPI_COMM_WORLD);
  return all;
}

// `run(automatic)` must message as `run(expected)` does, and not as `run(other)`.
template <class Run>
void ran(const Run& run, algorithm expected, algorithm other, const std::string& what) {
  const std::vector<long> by_name = messages([&] { run(expected); });
  BOOST_REQUIRE_MESSAGE(
      by_name != messages([&] { run(other); }),
      what << ": " << expected << " and " << other << " message alike; the check could not fail");
  BOOST_TEST((messages([&] { run(algorithm::automatic); }) == by_name),
             what << ": automatic did not run " << expected);
}

}  // namespace

// First, before any case loads or clears a table: COLLECTIVES_TUNING is read on the first choice.
BOOST_AUTO_TEST_CASE(follows_the_table_of_the_environment) {
  const char* path = std::getenv("COLLECTIVES_TUNING");
  if (path == nullptr) return;  // only under tests/tuning_roundtrip.sh
  json table;
  std::ifstream(path) >> table;
  const int p = world_size();
  std::size_t checked = 0;
  for (const auto& [name, by_p] : table.at("collectives").items()) {
    const collective c = *collectives::parse_collective(name);
    if (!by_p.contains(std::to_string(p))) continue;
    for (const json& r : by_p.at(std::to_string(p))) {
      const algorithm a = *collectives::parse_algorithm(r.at("algorithm").get<std::string>());
      for (const json& point : r.at("points")) {
        const std::size_t bytes = point.at("bytes");
        const std::size_t count = bytes / 4;  // tune.sh measures float
        const bool cuts =
            (c == collective::allreduce && (a == algorithm::ring || a == algorithm::rabenseifner)) ||
            (c == collective::reduce && a == algorithm::rabenseifner) ||
            (c == collective::broadcast &&
             (a == algorithm::scatter_allgather || a == algorithm::scatter_recursive_doubling));
        if (cuts && count < static_cast<std::size_t>(p)) continue;  // the rule's, checked below
        BOOST_TEST(collectives::automatic_choice({.coll = c, .p = p, .bytes = bytes}) == a,
                   name << " at " << bytes << " bytes, p = " << p);
        ++checked;
        if (c != collective::allreduce) continue;
        // And a real call follows it: the same messages as the table's algorithm run by name.
        std::vector<float> in(count, 1.0f), out(count);
        const auto run = [&](algorithm alg) {
          collectives::allreduce(in, out, collectives::ops::sum{}, MPI_COMM_WORLD, alg);
        };
        BOOST_TEST((messages([&] { run(algorithm::automatic); }) == messages([&] { run(a); })),
                   "allreduce at " << bytes << " bytes ran another algorithm than " << a);
      }
    }
  }
  BOOST_TEST(checked > 0, "the table has no size measured at p = " << p);
}

// Second, still before any case loads or clears a table: tune.sh recorded vendor's time at every
// size it measured, and fastest_choice says vendor exactly where the "fastest" section does (where
// vendor's worst timing is better than the library's), automatic's choice elsewhere.
BOOST_AUTO_TEST_CASE(fastest_follows_the_table_of_the_environment) {
  const char* path = std::getenv("COLLECTIVES_TUNING");
  if (path == nullptr) return;  // only under tests/tuning_roundtrip.sh
  json table;
  std::ifstream(path) >> table;
  BOOST_REQUIRE_MESSAGE(table.contains("fastest"), "the tuned table has no \"fastest\" section");
  const int p = world_size();
  const std::string ps = std::to_string(p);
  std::size_t checked = 0;
  for (const auto& [name, by_p] : table.at("collectives").items()) {
    if (!by_p.contains(ps)) continue;
    BOOST_TEST(table.at("fastest").contains(name), name << " has no \"fastest\" entry");
    if (!table.at("fastest").contains(name) || !table.at("fastest").at(name).contains(ps)) continue;
    const collective c = *collectives::parse_collective(name);
    for (const json& r : table.at("fastest").at(name).at(ps)) {
      const bool vendor = r.at("fastest") == "vendor";
      for (const json& point : r.at("points")) {
        const std::size_t bytes = point.at("bytes");
        const call_shape s{.coll = c, .p = p, .bytes = bytes};
        BOOST_TEST(collectives::automatic_choice(s) != algorithm::vendor);
        BOOST_TEST(
            collectives::fastest_choice(s) == (vendor ? algorithm::vendor : collectives::automatic_choice(s)),
            name << " at " << bytes << " bytes, p = " << p);
        BOOST_TEST_REQUIRE(point.contains("vendor_us"), name << " at " << bytes << ": no vendor time");
        // Vendor where its worst timing is better than the library's: the largest of the timings'
        // median ratios vendor ÷ library below the largest library ÷ vendor (which holds wherever
        // every run and timing put vendor ahead, and never where they put the library ahead).
        double vendor_worst = 0, library_worst = 0;
        for (const auto& [timing, ratios] : point.at("ratios").items()) {
          std::vector<double> r = ratios.get<std::vector<double>>();
          std::sort(r.begin(), r.end());
          const std::size_t n = r.size();
          BOOST_TEST_REQUIRE(n > 0u);
          const double median = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
          vendor_worst = std::max(vendor_worst, median);
          library_worst = std::max(library_worst, 1 / median);
        }
        // The barrier stays automatic's (docs/tuning.md, "The barrier").
        BOOST_TEST(vendor == (c != collective::barrier && vendor_worst < library_worst),
                   name << " at " << bytes << ": the verdict does not keep the rule");
        ++checked;
      }
    }
  }
  BOOST_TEST(checked > 0, "the table has no fastest entry measured at p = " << p);
}

BOOST_AUTO_TEST_CASE(malformed_tables_are_refused_naming_file_entry_and_problem) {
  const json good = {
      {"allreduce", {{"4", json::array({range(0, 1023, "recursive_doubling"), range(1024, {}, "ring")})}}}};
  const auto refused = [](const std::string& text, std::initializer_list<std::string> fragments,
                          const std::string& what) {
    const table_file f(text);
    try {
      collectives::load_tuning(f.path);
      BOOST_ERROR(what << ": the table was loaded");
    } catch (const collectives::error& e) {
      std::vector<std::string> all{f.path};
      all.insert(all.end(), fragments);
      for (const std::string& fragment : all)
        BOOST_CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos,
                            what << ": \"" << e.what() << "\" does not mention \"" << fragment << "\"");
    }
  };
  const auto with = [](const json& ranges) { return table_text({{"allreduce", {{"4", ranges}}}}); };
  refused("{\"format\": ", {"the file", "not valid JSON"}, "bad JSON");
  refused("[1, 2]", {"the file", "expected a JSON object"}, "not an object");
  refused(json{{"collectives", json::object()}}.dump(), {"the file", "missing \"format\""}, "no format");
  refused(json{{"format", "collectives-tuning/9"}, {"collectives", json::object()}}.dump(),
          {"\"format\"", "collectives-tuning/1"}, "another format");
  refused(json{{"format", "collectives-tuning/1"}}.dump(), {"the file", "missing \"collectives\""},
          "no collectives");
  refused(table_text({{"allreduse", {{"4", json::array()}}}}),
          {"collectives.allreduse", "unknown collective"}, "unknown collective");
  refused(table_text({{"allreduce", {{"four", json::array()}}}}),
          {"collectives.allreduce.\"four\"", "process count"}, "p not a number");
  refused(table_text({{"allreduce", {{"0", json::array()}}}}), {"collectives.allreduce.\"0\"", "≥ 1"},
          "p = 0");
  refused(with(range(0, {}, "ring")), {"collectives.allreduce.\"4\"", "array of size ranges"},
          "not an array");
  refused(with(json::array({{{"min_bytes", 0}, {"max_bytes", nullptr}}})),
          {"collectives.allreduce.\"4\"[0]", "missing \"algorithm\""}, "no algorithm");
  refused(with(json::array({{{"max_bytes", nullptr}, {"algorithm", "ring"}}})),
          {"collectives.allreduce.\"4\"[0]", "missing \"min_bytes\""}, "no min_bytes");
  refused(with(json::array({{{"min_bytes", 0}, {"algorithm", "ring"}}})),
          {"collectives.allreduce.\"4\"[0]", "missing \"max_bytes\""}, "no max_bytes");
  refused(with(json::array({range(0, 10, "ring"), range(11, {}, "rign")})),
          {"collectives.allreduce.\"4\"[1]", "unknown algorithm 'rign'"}, "unknown algorithm");
  refused(with(json::array({range(0, {}, "bruck")})),
          {"collectives.allreduce.\"4\"[0]", "allreduce has no algorithm 'bruck'"},
          "an algorithm of another collective");
  refused(with(json::array({range(0, {}, "vendor")})),
          {"collectives.allreduce.\"4\"[0]", "never chooses 'vendor'"}, "vendor");
  refused(with(json::array({range(0, {}, "hierarchical")})),
          {"collectives.allreduce.\"4\"[0]", "never chooses 'hierarchical'"}, "hierarchical");
  refused(with(json::array({{{"min_bytes", -1}, {"max_bytes", 10}, {"algorithm", "ring"}}})),
          {"collectives.allreduce.\"4\"[0]", "\"min_bytes\" must be a whole number"}, "negative size");
  refused(with(json::array({range(100, 10, "ring")})), {"collectives.allreduce.\"4\"[0]", "above max_bytes"},
          "min above max");
  refused(with(json::array({range(100, 200, "ring"), range(0, 50, "naive")})),
          {"collectives.allreduce.\"4\"[1]", "unsorted"}, "unsorted ranges");
  refused(with(json::array({range(0, 100, "ring"), range(100, {}, "naive")})),
          {"collectives.allreduce.\"4\"[1]", "overlaps [0]"}, "overlapping ranges");
  refused(with(json::array({range(0, {}, "ring"), range(100, {}, "naive")})),
          {"collectives.allreduce.\"4\"[1]", "overlaps [0]", "any size"}, "after an open range");
  testing::expect_error([] { collectives::load_tuning("/nonexistent/tuning.json"); },
                        {"/nonexistent/tuning.json", "cannot be read"}, "no such file");

  // The "fastest" section (vendor or library per size range): checked like the library's ranges.
  const auto fastest = [&](const json& section) { return table_text(good, section); };
  const auto fastest4 = [&](const json& ranges) { return fastest({{"allreduce", {{"4", ranges}}}}); };
  refused(fastest(json::array()), {"\"fastest\"", "expected an object keyed by collective"},
          "fastest not an object");
  refused(fastest({{"allreduse", {{"4", json::array()}}}}), {"fastest.allreduse", "unknown collective"},
          "fastest: unknown collective");
  refused(fastest({{"allreduce", json::array()}}), {"fastest.allreduce", "keyed by process count"},
          "fastest: not keyed by p");
  refused(fastest({{"allreduce", {{"two", json::array()}}}}), {"fastest.allreduce.\"two\"", "process count"},
          "fastest: p not a number");
  refused(fastest4(verdict(0, {}, "vendor")), {"fastest.allreduce.\"4\"", "array of size ranges"},
          "fastest: not an array");
  refused(fastest4(json::array({range(0, {}, "ring")})),
          {"fastest.allreduce.\"4\"[0]", "missing \"fastest\""},
          "fastest: an algorithm instead of a verdict");
  refused(fastest4(json::array({verdict(0, 10, "vendor"), verdict(11, {}, "ring")})),
          {"fastest.allreduce.\"4\"[1]", "\"fastest\" must be \"vendor\" or \"library\", given \"ring\""},
          "fastest: neither vendor nor library");
  refused(fastest4(json::array({{{"min_bytes", 0}, {"max_bytes", nullptr}, {"fastest", true}}})),
          {"fastest.allreduce.\"4\"[0]", "given true"}, "fastest: not a name");
  refused(fastest4(json::array({{{"min_bytes", 0}, {"fastest", "vendor"}}})),
          {"fastest.allreduce.\"4\"[0]", "missing \"max_bytes\""}, "fastest: no max_bytes");
  refused(fastest4(json::array({{{"min_bytes", 0.5}, {"max_bytes", nullptr}, {"fastest", "vendor"}}})),
          {"fastest.allreduce.\"4\"[0]", "\"min_bytes\" must be a whole number"}, "fastest: fractional size");
  refused(fastest4(json::array({verdict(100, 200, "vendor"), verdict(0, 50, "library")})),
          {"fastest.allreduce.\"4\"[1]", "unsorted"}, "fastest: unsorted");
  refused(fastest4(json::array({verdict(0, 100, "vendor"), verdict(100, {}, "library")})),
          {"fastest.allreduce.\"4\"[1]", "overlaps [0]"}, "fastest: overlapping");

  // A refused table leaves the one in force.
  load(good);
  const call_shape big{.coll = collective::allreduce, .p = 4, .bytes = 1 << 20};
  BOOST_TEST(collectives::automatic_choice(big) == algorithm::ring);
  const table_file bad(with(json::array({range(0, {}, "vendor")})));
  BOOST_CHECK_THROW(collectives::load_tuning(bad.path), collectives::error);
  BOOST_TEST(collectives::automatic_choice(big) == algorithm::ring);
  const table_file bad_fastest(fastest4(json::array({verdict(0, {}, "ring")})));
  BOOST_CHECK_THROW(collectives::load_tuning(bad_fastest.path), collectives::error);
  BOOST_TEST(collectives::automatic_choice(big) == algorithm::ring);
  BOOST_TEST(collectives::fastest_choice(big) == algorithm::ring);
  collectives::clear_tuning();
}

BOOST_AUTO_TEST_CASE(fastest_choice_is_vendor_where_the_table_says_else_automatic) {
  const json library = {{"allreduce", {{"4", json::array({range(0, {}, "ring")})}}},
                        {"allgather", {{"4", json::array({range(0, {}, "ring")})}}}};
  const json fastest = {
      {"allreduce",
       {{"4",
         json::array({verdict(0, 63, "vendor"), verdict(64, 4095, "library"), verdict(4096, {}, "vendor")})},
        {"2", json::array({verdict(0, {}, "library")})}}},
      {"allgather", {{"4", json::array({verdict(0, 1023, "vendor"), verdict(1024, {}, "library")})}}},
      {"gatherv", {{"4", json::array({verdict(0, {}, "vendor")})}}},
      {"barrier", {{"4", json::array({verdict(0, {}, "vendor")})}}}};
  load(library, fastest);
  const auto at = [](collective c, int p, std::size_t bytes) {
    const call_shape s{.coll = c, .p = p, .bytes = bytes};
    BOOST_TEST(collectives::automatic_choice(s) != algorithm::vendor);  // automatic never does
    return collectives::fastest_choice(s);
  };
  BOOST_TEST(at(collective::allreduce, 4, 8) == algorithm::vendor);
  BOOST_TEST(at(collective::allreduce, 4, 63) == algorithm::vendor);
  BOOST_TEST(at(collective::allreduce, 4, 64) == algorithm::ring);  // library: the table's algorithm
  BOOST_TEST(at(collective::allreduce, 4, 4095) == algorithm::ring);
  BOOST_TEST(at(collective::allreduce, 4, 4096) == algorithm::vendor);
  BOOST_TEST(at(collective::allreduce, 4, 1 << 24) == algorithm::vendor);
  BOOST_TEST(at(collective::allreduce, 8, 8) == algorithm::vendor);  // nearest power of two: 4
  BOOST_TEST(at(collective::allreduce, 2, 8) ==
             collectives::automatic_choice({.coll = collective::allreduce, .p = 2, .bytes = 8}));
  // Not a power of two: nothing of that kind was measured, so automatic's (the rule's) choice.
  BOOST_TEST(at(collective::allreduce, 3, 8) ==
             collectives::automatic_choice({.coll = collective::allreduce, .p = 3, .bytes = 8}));
  // A p-block collective is keyed by the whole array, as automatic is: 4 blocks of 200 bytes = 800.
  BOOST_TEST(at(collective::allgather, 4, 800) == algorithm::vendor);
  BOOST_TEST(at(collective::allgather, 4, 4096) == algorithm::ring);
  BOOST_TEST(at(collective::barrier, 4, 0) == algorithm::vendor);
  // gatherv: its counts are not known alike, so every size gets the verdict of the table's range at
  // 0 bytes (colltune writes one range for every size), on every rank alike.
  BOOST_TEST(at(collective::gatherv, 4, 8) == algorithm::vendor);
  BOOST_TEST(at(collective::gatherv, 4, 1 << 24) == algorithm::vendor);
  BOOST_TEST(at(collective::scatterv, 4, 8) ==
             collectives::automatic_choice({.coll = collective::scatterv, .p = 4, .bytes = 8}));
  // A collective the section does not list gets automatic's choice.
  BOOST_TEST(at(collective::broadcast, 4, 8) ==
             collectives::automatic_choice({.coll = collective::broadcast, .p = 4, .bytes = 8}));
  // A non-commutative op: vendor keeps MPI's order; elsewhere automatic's order-keeping choice.
  const call_shape nc{.coll = collective::allreduce, .p = 4, .bytes = 1024, .commutative = false};
  BOOST_TEST(collectives::fastest_choice(nc) == collectives::automatic_choice(nc));
  BOOST_TEST(collectives::keeps_rank_order(collective::allreduce, collectives::fastest_choice(nc)));

  // A table without the section (tune.sh before vendor's times) and no table at all: automatic's.
  for (const bool with_table : {true, false}) {
    if (with_table)
      load(library);
    else
      collectives::clear_tuning();
    for (collective c : collectives::all_collectives())
      for (int p : {2, 3, 4})
        for (std::size_t bytes = 8; bytes <= (std::size_t{1} << 24); bytes *= 8) {
          const call_shape s{.coll = c, .p = p, .bytes = bytes};
          BOOST_TEST(collectives::fastest_choice(s) == collectives::automatic_choice(s),
                     c << " at p = " << p << ", " << bytes << " bytes, "
                       << (with_table ? "a table" : "no table") << " without vendor's times");
        }
  }
  collectives::clear_tuning();
}

BOOST_AUTO_TEST_CASE(lookup_exact_then_nearest_of_the_same_kind_then_the_rule) {
  const auto all = [](const char* a) { return json::array({range(0, {}, a)}); };
  load({{"allreduce",
         {{"2", all("naive")}, {"4", all("ring")}, {"5", all("recursive_doubling")}, {"7", all("naive")}}}});
  const auto at = [](int p) {
    return collectives::automatic_choice({.coll = collective::allreduce, .p = p, .bytes = 1 << 20});
  };
  BOOST_TEST(at(2) == algorithm::naive);               // exact
  BOOST_TEST(at(4) == algorithm::ring);                // exact
  BOOST_TEST(at(8) == algorithm::ring);                // nearest power of two: 4
  BOOST_TEST(at(1) == algorithm::naive);               // 1 = 2⁰: nearest is 2
  BOOST_TEST(at(3) == algorithm::recursive_doubling);  // not a power of two: 5
  BOOST_TEST(at(6) == algorithm::recursive_doubling);  // 5 and 7 tie: the smaller
  BOOST_TEST(at(100) == algorithm::naive);             // 7
  // A collective the table does not list, and a process count of a kind it did not measure.
  load({{"allreduce", {{"4", all("naive")}}}});
  BOOST_TEST(at(3) == rule({.coll = collective::allreduce, .p = 3, .bytes = 1 << 20}));
  load({{"allreduce", {{"4", all("naive")}}}});
  const call_shape bcast{.coll = collective::broadcast, .p = 4, .bytes = 1 << 20};
  BOOST_TEST(collectives::automatic_choice(bcast) == rule(bcast));
  // A size in no range (a gap) keeps the rule.
  load({{"allreduce", {{"4", json::array({range(0, 99, "naive"), range(1 << 21, {}, "naive")})}}}});
  BOOST_TEST(at(4) == rule({.coll = collective::allreduce, .p = 4, .bytes = 1 << 20}));
  collectives::clear_tuning();
}

BOOST_AUTO_TEST_CASE(fallbacks_non_commutative_fewer_elements_than_ranks_and_unshared_sizes) {
  load({{"allreduce", {{"4", json::array({range(0, {}, "ring")})}}}});
  // ring cannot keep rank order: a non-commutative op gets the rule's (order-keeping) choice.
  const call_shape nc{.coll = collective::allreduce, .p = 4, .bytes = 1 << 20, .commutative = false};
  const algorithm kept = collectives::automatic_choice(nc);
  BOOST_TEST(kept != algorithm::ring);
  BOOST_TEST(collectives::keeps_rank_order(collective::allreduce, kept));
  // Fewer elements than ranks (12 bytes = 3 floats < 4): the vector-cutting algorithms give way.
  for (collective c : {collective::allreduce, collective::reduce, collective::broadcast}) {
    load({{"allreduce", {{"4", json::array({range(0, {}, "ring")})}}},
          {"reduce", {{"4", json::array({range(0, {}, "rabenseifner")})}}},
          {"broadcast", {{"4", json::array({range(0, {}, "scatter_allgather")})}}}});
    const call_shape few{.coll = c, .p = 4, .bytes = 12};
    const call_shape enough{.coll = c, .p = 4, .bytes = 16};
    const algorithm table_choice = collectives::automatic_choice(enough);
    BOOST_TEST(collectives::automatic_choice(few) != table_choice, c);
    BOOST_TEST(collectives::automatic_choice(few) == rule(few), c);
  }
  // gatherv and alltoallv: their counts are not known alike, so the table cannot choose: a table
  // naming another algorithm than the rule's changes nothing.
  for (collective c : {collective::gatherv, collective::alltoallv}) {
    const call_shape s{.coll = c, .p = 4, .bytes = 1 << 20};
    const algorithm by_rule = rule(s);
    const algorithm other = by_rule == algorithm::naive ? algorithm::binomial : algorithm::naive;
    if (!collectives::supports(c, other)) continue;
    load({{std::string(collectives::to_string(c)),
           {{"4", json::array({range(0, {}, std::string(collectives::to_string(other)))})}}}});
    BOOST_TEST(collectives::automatic_choice(s) == by_rule, c);
  }
  collectives::clear_tuning();
  testing::expect_error(
      [] { collectives::automatic_choice({.coll = collective::allreduce, .p = 0, .bytes = 8}); },
      {"p must be ≥ 1"}, "p = 0");
}

// The size key is collbench's bytes: the vector for broadcast, the whole p-block array for allgather.
BOOST_AUTO_TEST_CASE(real_calls_follow_the_table_by_collbench_bytes) {
  const int p = world_size();
  if (p < 2) return;
  const std::string ps = std::to_string(p);
  // broadcast: binomial below 128 KiB, pipeline (64 KiB segments: several messages) from there.
  load({{"broadcast", {{ps, json::array({range(0, 131071, "binomial"), range(131072, {}, "pipeline")})}}}});
  for (std::size_t n : {std::size_t{32768}, std::size_t{32767}}) {
    std::vector<float> buf(n, 1.0f);
    const bool above = n * 4 >= 131072;
    ran([&](algorithm a) { collectives::broadcast(buf, 0, MPI_COMM_WORLD, a); },
        above ? algorithm::pipeline : algorithm::binomial, above ? algorithm::binomial : algorithm::pipeline,
        "broadcast of " + std::to_string(n * 4) + " bytes");
  }
  // allgather: ring below p blocks of 16 floats in all, naive from there (at p = 2 they send alike).
  if (p >= 3) {
    const std::size_t boundary = static_cast<std::size_t>(p) * 16 * 4;
    load(
        {{"allgather", {{ps, json::array({range(0, boundary - 1, "ring"), range(boundary, {}, "naive")})}}}});
    for (std::size_t n : {std::size_t{16}, std::size_t{15}}) {
      std::vector<float> in(n, 1.0f), out(n * static_cast<std::size_t>(p));
      const bool above = n == 16;
      ran([&](algorithm a) { collectives::allgather(in, out, MPI_COMM_WORLD, a); },
          above ? algorithm::naive : algorithm::ring, above ? algorithm::ring : algorithm::naive,
          "allgather of " + std::to_string(n) + " floats per block");
    }
  }
  collectives::clear_tuning();
}

// The choice depends only on what every rank passes alike and on the table: every rank sweeps the
// same shapes (automatic's choice and fastest's) and the ranks compare their answers; a gatherv,
// whose counts only the root knows, keeps the rule on every rank.
BOOST_AUTO_TEST_CASE(every_rank_chooses_alike) {
  const int p = world_size();
  const std::string ps = std::to_string(p);
  // gatherv's table entry names the algorithm the rule does not choose.
  const algorithm gatherv_rule = rule({.coll = collective::gatherv, .p = p, .bytes = 0});
  const algorithm gatherv_other = gatherv_rule == algorithm::naive ? algorithm::binomial : algorithm::naive;
  load({{"allreduce", {{ps, json::array({range(0, 4095, "recursive_doubling"), range(4096, {}, "naive")})}}},
        {"gatherv", {{ps, json::array({range(0, {}, std::string(collectives::to_string(gatherv_other)))})}}}},
       json{{"allreduce", {{ps, json::array({verdict(0, 1023, "vendor"), verdict(1024, {}, "library")})}}}});
  // A hash of every choice, unsigned so that it wraps (a signed one overflows: undefined).
  unsigned long long mine = 0;
  for (collective c : collectives::all_collectives())
    for (std::size_t bytes = 8; bytes <= (std::size_t{1} << 24); bytes *= 2) {
      const call_shape s{.coll = c, .p = p, .bytes = bytes};
      mine = mine * 31 + static_cast<unsigned long long>(collectives::automatic_choice(s));
      mine = mine * 31 + static_cast<unsigned long long>(collectives::fastest_choice(s));
    }
  unsigned long long low = 0, high = 0;
  MPI_Allreduce(&mine, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  BOOST_TEST(low == high);
  if (p >= 4) {  // below, binomial's tree is naive's star
    // Only the root holds recv_counts; automatic must run the rule's choice everywhere, not the table's.
    std::vector<int> in(static_cast<std::size_t>(world_rank() + 1), 1), counts, out;
    if (world_rank() == 0) {
      for (int r = 0; r < p; ++r) counts.push_back(r + 1);
      out.resize(static_cast<std::size_t>(p * (p + 1) / 2));
    }
    ran([&](algorithm a) { collectives::gatherv(in, out, counts, 0, MPI_COMM_WORLD, a); }, gatherv_rule,
        gatherv_other, "gatherv");
  }
  collectives::clear_tuning();
}

// The table in force is read without a lock (dispatch/tuning.cpp): threads choosing while another loads
// and clears tables see either table's choice or the rule's, never anything else (nor a freed table,
// which COLLECTIVES_SANITIZE=1 builds report); and once a thread knows that load_tuning returned (here: it
// acquires a flag stored after it), its next choice follows the new table. No MPI in the threads, so
// one rank is enough.
BOOST_AUTO_TEST_CASE(loading_while_other_threads_choose) {
  if (world_rank() != 0) return;
  const call_shape s{.coll = collective::allreduce, .p = 4, .bytes = 1 << 20};
  const algorithm by_rule = rule(s);
  const algorithm by_table = by_rule == algorithm::naive ? algorithm::recursive_doubling : algorithm::naive;
  const table_file f(table_text(
      {{"allreduce", {{"4", json::array({range(0, {}, std::string(collectives::to_string(by_table)))})}}}}));
  std::atomic<bool> loaded{false};  // main loaded the table for good
  std::atomic<long> choices{0}, strange{0}, stale{0};
  const auto choose = [&] {
    while (!loaded.load(std::memory_order_acquire)) {
      const algorithm a = collectives::automatic_choice(s);
      if (a != by_rule && a != by_table) strange.fetch_add(1);
      choices.fetch_add(1);
    }
    if (collectives::automatic_choice(s) != by_table) stale.fetch_add(1);
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i) threads.emplace_back(choose);
  for (int i = 0; i < 200; ++i) {
    collectives::load_tuning(f.path);
    collectives::clear_tuning();
  }
  collectives::load_tuning(f.path);
  loaded.store(true, std::memory_order_release);
  for (std::thread& t : threads) t.join();
  BOOST_TEST(strange.load() == 0, choices.load() << " choices");
  BOOST_TEST(stale.load() == 0, "a thread did not follow the table loaded before it looked");
  BOOST_TEST(collectives::automatic_choice(s) == by_table);
  collectives::clear_tuning();
  BOOST_TEST(collectives::automatic_choice(s) == by_rule);
}

// Above 8 ranks the built-in rule follows the simulated fat trees (src/dispatch/automatic-table.json):
// broadcast's scatter + recursive doubling from 512 KiB when p is a power of two (bine_bandwidth
// from 256 KiB at 256 and 512 ranks), the pipelined tree when it is not (the fold would send the
// whole vector once more), binomial in between.
// Without a table of yours, automatic follows the library's own, automatic-table.json, at every
// process count it has a row for, inside every range (where the call allows the range's algorithm:
// a commutative op, at least p elements), and the file is a table load_tuning accepts.
BOOST_AUTO_TEST_CASE(without_a_table_automatic_follows_the_builtin_table) {
  collectives::clear_tuning();
  std::ifstream in(COLLECTIVES_BUILTIN_TABLE);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " COLLECTIVES_BUILTIN_TABLE);
  const json table = json::parse(in);
  collectives::load_tuning(COLLECTIVES_BUILTIN_TABLE);  // well-formed: throws otherwise
  collectives::clear_tuning();
  int checked = 0;
  for (const auto& [name, by_p] : table.at("collectives").items()) {
    const collective c = *collectives::parse_collective(name);
    const bool p_blocks = c == collective::scatter || c == collective::gather || c == collective::allgather ||
                          c == collective::reduce_scatter || c == collective::alltoall;
    for (const auto& [key, ranges] : by_p.items()) {
      const int p = std::stoi(key);
      const auto step = static_cast<std::size_t>(p_blocks ? p : 1);
      for (const json& r : ranges) {
        const auto min = std::max(r.at("min_bytes").get<std::size_t>(), static_cast<std::size_t>(p));
        const auto max = r.at("max_bytes").is_null() ? 4 * min : r.at("max_bytes").get<std::size_t>();
        for (std::size_t probe : {(min + step - 1) / step * step, max / step * step}) {
          if (probe < min || probe > max) continue;  // no call of p equal blocks has such a size
          const call_shape s{.coll = c, .p = p, .bytes = probe, .elem_size = 1};
          BOOST_TEST(to_string(collectives::automatic_choice(s)) == r.at("algorithm").get<std::string>(),
                     name << " at p = " << p << ", " << probe << " bytes");
          ++checked;
        }
      }
    }
  }
  BOOST_TEST(checked > 1000);
}

BOOST_AUTO_TEST_CASE(builtin_rule_at_many_ranks_broadcast) {
  collectives::clear_tuning();
  const auto at = [](int p, std::size_t bytes) {
    return collectives::automatic_choice({.coll = collective::broadcast, .p = p, .bytes = bytes});
  };
  constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
  BOOST_TEST(at(256, 512 * KiB) == algorithm::bine_bandwidth);
  BOOST_TEST(at(512, 256 * KiB) == algorithm::bine_bandwidth);
  BOOST_TEST(at(256, 200 * KiB) == algorithm::pipelined_tree);
  BOOST_TEST(at(128, 512 * KiB) == algorithm::scatter_recursive_doubling);
  BOOST_TEST(at(1024, 16 * MiB) == algorithm::scatter_recursive_doubling);
  BOOST_TEST(at(64, 8 * MiB) == algorithm::scatter_recursive_doubling);
  BOOST_TEST(at(128, 256 * KiB) == algorithm::pipelined_tree);
  BOOST_TEST(at(255, 1 * MiB) == algorithm::pipelined_tree);
  BOOST_TEST(at(255, 16 * MiB) == algorithm::scatter_allgather);
  BOOST_TEST(at(256, 100 * KiB) == algorithm::binomial);
  BOOST_TEST(at(256, 1 * KiB) == algorithm::binomial);
}
