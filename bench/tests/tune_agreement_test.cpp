// SPDX-License-Identifier: BSD-3-Clause
// colltune's verdicts across timings (part of tune_test.cpp's program): back-to-back runs must agree
// with the synchronized ones, automatic keeps an algorithm only where every run and timing agree,
// each timing is held to its own noise, and the barrier stays the built-in rule's choice.

#include <boost/test/unit_test.hpp>

#include "tune_test.hpp"

// With runs of other timings beside the synchronized ones, every timing must agree: a verdict that
// the synchronized runs give and the back-to-back ones contradict is no longer "ahead", and goes to
// the side whose worst timing is better, whichever side the synchronized runs put ahead. The library's
// time in a run is the chosen algorithm's own row where the run measured it, else automatic's.
// Synchronized runs alone cannot be contradicted; runs of other timings alone are refused.
BOOST_AUTO_TEST_CASE(back_to_back_runs_must_agree_with_the_synchronized_ones) {
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
  // Back to back: vendor 1.2× slower at 8 B (synchronized: 2× faster): vendor's worst timing is the
  // better; 1.25× faster at 256 KiB (synchronized: 1.5× slower): the library's is; at 512 B vendor beats automatic's row (90 against 100) but not the chosen
  // algorithm's own (80), which counts, and the synchronized runs agree.
  const std::string b2b = write_rows(s.dir, "b2b", "back-to-back",
                                     {{"vendor", 8, 120},
                                      {"automatic", 8, 100},
                                      {"vendor", 512, 90},
                                      {"automatic", 512, 100},
                                      {chosen_512, 512, 80},
                                      {"vendor", 262144, 80},
                                      {"automatic", 262144, 100}});
  const json alone = colltune({run}, s.dir / "alone.json");
  const json both = colltune({b2b, run}, s.dir / "both.json");
  BOOST_TEST(both.at("provenance").at("fastest_timing").get<std::string>().starts_with("back-to-back"));
  BOOST_TEST(alone.at("provenance").at("fastest_timing").get<std::string>().starts_with("synchronized"));
  BOOST_TEST(both.at("provenance").at("back_to_back_runs").at("2") == 1);
  BOOST_TEST(both.at("provenance").at("runs").at("2") == 1);

  const auto a = fastest_points(alone), b = fastest_points(both);
  BOOST_TEST(a.at(8).first == "vendor");
  BOOST_TEST(a.at(512).first == "library");
  BOOST_TEST(a.at(262144).first == "library");
  BOOST_TEST(a.at(8).second.at("timing") == "synchronized");
  BOOST_TEST(a.at(8).second.at("by").get<std::string>().starts_with("vendor: ahead"));
  BOOST_TEST(a.at(262144).second.at("by").get<std::string>().starts_with("library: ahead"));
  BOOST_TEST(b.at(8).first == "vendor");
  BOOST_TEST(b.at(8).second.at("by").get<std::string>().starts_with("vendor: neither side ahead"));
  BOOST_TEST(b.at(512).first == "library");
  BOOST_TEST(b.at(512).second.at("by").get<std::string>().starts_with("library: ahead"));
  BOOST_TEST(b.at(512).second.at("library_us").get<double>() == 80.0);
  BOOST_TEST(b.at(262144).first == "library");
  BOOST_TEST(b.at(262144).second.at("by").get<std::string>().starts_with("library: neither side ahead"));
  for (const auto& [bytes, verdict] : b) {
    BOOST_TEST(verdict.second.at("timing") == "back-to-back", bytes);  // the times shown
    BOOST_TEST(verdict.second.at("ratios").contains("synchronized"), bytes);
    BOOST_TEST(verdict.second.at("ratios").contains("back-to-back"), bytes);
  }
  BOOST_TEST(b.at(8).second.at("ratios").at("synchronized")[0].get<double>() == 0.5);
  BOOST_TEST(b.at(8).second.at("ratios").at("back-to-back")[0].get<double>() == 1.2);

  // The library loads both tables, and fastest_choice follows the verdicts.
  for (const char* file : {"alone.json", "both.json"}) {
    collectives::load_tuning((s.dir / file).string());
    for (const std::size_t bytes : {std::size_t{8}, std::size_t{512}, std::size_t{262144}}) {
      const collectives::call_shape shape{.coll = collective::allreduce, .p = 2, .bytes = bytes};
      BOOST_TEST(collectives::fastest_choice(shape) ==
                     (bytes == 8 ? algorithm::vendor : collectives::automatic_choice(shape)),
                 file << ", " << bytes << " bytes");
    }
    collectives::clear_tuning();
  }

  // Runs of other timings alone cannot choose among the library's algorithms: refused.
  const std::string command =
      fmt::format("{} --out {} {} 2> /dev/null", COLLTUNE_EXE, (s.dir / "none.json").string(), b2b);
  const int status = std::system(command.c_str());
  BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) != 0));
}

namespace {

// The rows of allreduce at p = 2 for one run: every library algorithm at `others` µs but `a` and
// `rule` (with the times given; 0: no row), vendor at `vendor` µs. Through the drop-in (a timing other
// than synchronized), the vendor row is MPI_* served by the drop-in (`served` µs) and pmpi is vendor.
struct size_rows {
  std::size_t bytes;
  std::string a, rule;
  double a_us, rule_us, vendor_us, served_us;
};
std::vector<std::tuple<std::string, std::size_t, double>> rows_of(const std::vector<size_rows>& list,
                                                                  bool dropin, double others = 200) {
  std::vector<std::tuple<std::string, std::size_t, double>> out;
  for (const size_rows& r : list) {
    if (!dropin)
      for (algorithm x : collectives::algorithms_for(collective::allreduce)) {
        const std::string name(to_string(x));
        if (x != algorithm::vendor && x != algorithm::hierarchical && name != r.a && name != r.rule)
          out.emplace_back(name, r.bytes, others);
      }
    if (r.a_us > 0) out.emplace_back(r.a, r.bytes, r.a_us);
    if (r.rule_us > 0) out.emplace_back(r.rule, r.bytes, r.rule_us);
    if (dropin) {
      out.emplace_back("vendor", r.bytes, r.served_us);
      out.emplace_back("pmpi", r.bytes, r.vendor_us);
    } else {
      out.emplace_back("vendor", r.bytes, r.vendor_us);
    }
  }
  return out;
}

// An algorithm of allreduce other than the built-in rule's choice at p = 2 and `bytes`.
std::pair<std::string, std::string> other_and_rule(std::size_t bytes) {
  collectives::clear_tuning();
  const algorithm rule =
      collectives::automatic_choice({.coll = collective::allreduce, .p = 2, .bytes = bytes});
  for (algorithm x : collectives::algorithms_for(collective::allreduce))
    if (x != algorithm::vendor && x != algorithm::hierarchical && x != rule)
      return {std::string(to_string(x)), std::string(to_string(rule))};
  BOOST_FAIL("allreduce has a single algorithm");
  return {};
}

// The five sizes of the case below, each with an algorithm of allreduce other than the built-in
// rule's choice at p = 2 and that choice.
struct agreement_sizes {
  const std::size_t kept = 1024, contradicted = 16384, unmeasured = 65536, noisy = 262144, close = 4 << 20;
  const std::string a1 = other_and_rule(kept).first, r1 = other_and_rule(kept).second,
                    a2 = other_and_rule(contradicted).first, r2 = other_and_rule(contradicted).second,
                    a5 = other_and_rule(unmeasured).first, r5 = other_and_rule(unmeasured).second,
                    a3 = other_and_rule(noisy).first, r3 = other_and_rule(noisy).second,
                    a4 = other_and_rule(close).first, r4 = other_and_rule(close).second;
};

// The case's runs: two synchronized, one back to back and one as IMB times (the last two through
// the drop-in).
std::vector<std::string> agreement_runs(const fs::path& dir, const agreement_sizes& z) {
  // bytes, a, rule, a's µs, rule's µs, vendor's µs (pmpi through the drop-in), served µs
  const std::string sync1 = write_rows(dir, "sync1", "synchronized",
                                       rows_of({{z.kept, z.a1, z.r1, 60, 100, 100, 0},
                                                {z.contradicted, z.a2, z.r2, 60, 100, 100, 0},
                                                {z.unmeasured, z.a5, z.r5, 60, 100, 100, 0},
                                                {z.noisy, z.a3, z.r3, 40, 100, 100, 0},
                                                {z.close, z.a4, z.r4, 98, 100, 100, 0}},
                                               false));
  const std::string sync2 = write_rows(dir, "sync2", "synchronized",
                                       rows_of({{z.kept, z.a1, z.r1, 62, 100, 100, 0},
                                                {z.contradicted, z.a2, z.r2, 61, 100, 100, 0},
                                                {z.unmeasured, z.a5, z.r5, 61, 100, 100, 0},
                                                {z.noisy, z.a3, z.r3, 97, 100, 100, 0},
                                                {z.close, z.a4, z.r4, 97, 100, 100, 0}},
                                               false));
  // Through the drop-in: the first pass (synchronized runs alone) chose a1 at `kept` and a2 at
  // `contradicted`, so the drop-in served those there.
  const std::string b2b = write_rows(dir, "b2b", "back-to-back",
                                     rows_of({{z.kept, z.a1, z.r1, 70, 100, 100, 71},
                                              {z.contradicted, z.a2, z.r2, 70, 100, 100, 71},
                                              {z.unmeasured, z.a5, z.r5, 0, 100, 100, 61},
                                              {z.noisy, z.a3, z.r3, 70, 100, 100, 101},
                                              {z.close, z.a4, z.r4, 98, 100, 100, 101}},
                                             true));
  const std::string imb = write_rows(dir, "imb", "imb",
                                     rows_of({{z.kept, z.a1, z.r1, 65, 100, 100, 66},
                                              {z.contradicted, z.a2, z.r2, 120, 100, 100, 121},
                                              {z.unmeasured, z.a5, z.r5, 0, 100, 100, 61},
                                              {z.noisy, z.a3, z.r3, 65, 100, 100, 101},
                                              {z.close, z.a4, z.r4, 98, 100, 100, 101}},
                                             true));
  return {sync1, b2b, sync2, imb};
}

// automatic's ranges in the table, each with its reason, and the points' ratios and noise.
void check_automatic_ranges(const json& table, const agreement_sizes& z) {
  std::map<std::size_t, std::pair<json, json>> seen;  // bytes → (range, point)
  for (const json& r : table.at("collectives").at("allreduce").at("2")) {
    BOOST_TEST(r.contains("why"));
    for (const json& p : r.at("points")) seen[p.at("bytes").get<std::size_t>()] = {r, p};
  }
  const auto algorithm_at = [&](std::size_t bytes) {
    return seen.at(bytes).first.at("algorithm").get<std::string>();
  };
  const auto why_at = [&](std::size_t bytes) { return seen.at(bytes).first.at("why").get<std::string>(); };
  // Ahead in every run and timing (ratios 0.60, 0.62; 0.70; 0.65; noise 3%): kept.
  BOOST_TEST(algorithm_at(z.kept) == z.a1);
  BOOST_TEST(why_at(z.kept).starts_with("measured"));
  const json& k = seen.at(z.kept).second;
  BOOST_TEST(k.at("rule") == z.r1);
  BOOST_TEST(k.at("by").get<std::string>().starts_with("measurement: ahead of the built-in rule's choice"));
  BOOST_TEST(k.at("against_rule").at("contender") == z.a1);
  BOOST_TEST(k.at("against_rule").at("ratios").at("synchronized").size() == 2u);
  BOOST_TEST(k.at("against_rule").at("ratios").at("imb")[0].get<double>() == 0.65);
  BOOST_TEST(k.at("against_rule").at("ratios").at("back-to-back")[0].get<double>() == 0.7);
  // IMB's timing contradicts the synchronized and back-to-back runs: the rule's choice.
  BOOST_TEST(algorithm_at(z.contradicted) == z.r2);
  BOOST_TEST(why_at(z.contradicted).starts_with("rule"));
  BOOST_TEST(
      seen.at(z.contradicted).second.at("by").get<std::string>().starts_with("rule: no algorithm ahead"));
  BOOST_TEST(seen.at(z.contradicted).second.at("against_rule").at("contender") == z.a2);
  // Ahead in the synchronized runs, but the other timings measured the rule's choice only (and the
  // drop-in serving the first pass's choice, a5): they cannot agree, so the rule's choice.
  BOOST_TEST(algorithm_at(z.unmeasured) == z.r5);
  BOOST_TEST(
      seen.at(z.unmeasured).second.at("by").get<std::string>().find("one side only") != std::string::npos,
      seen.at(z.unmeasured).second.at("by"));
  // Ahead in every run, but the two synchronized runs disagree (0.40 and 0.97: the lesser 71% from
  // their median 0.685, as a factor), and the median ratio, 0.675, is not below 1 ÷ 1.71: the rule's.
  BOOST_TEST(algorithm_at(z.noisy) == z.r3);
  BOOST_TEST(
      seen.at(z.noisy).second.at("against_rule").at("noise").get<double>() == (0.40 + 0.97) / 2 / 0.40 - 1,
      boost::test_tools::tolerance(1e-9));
  // Ahead everywhere, by 2–3%: within the floor, the rule's.
  BOOST_TEST(algorithm_at(z.close) == z.r4);
}

void check_fastest_verdicts(const json& table, const agreement_sizes& z) {
  // "fastest": at `kept` the drop-in served a1 (71 and 66 against PMPI_* 100; synchronized 100 ÷ 60):
  // the library; at `contradicted` the choice is now the rule's, whose own rows say 100 against 100:
  // neither side ahead, and a tie: the library, as automatic.
  const auto verdict = fastest_points(table);
  BOOST_TEST(verdict.at(z.kept).first == "library");
  BOOST_TEST(verdict.at(z.kept).second.at("library") == z.a1);
  BOOST_TEST(verdict.at(z.kept).second.at("timing") == "imb");
  BOOST_TEST(verdict.at(z.kept).second.at("library_us").get<double>() == 66.0);
  BOOST_TEST(verdict.at(z.contradicted).first == "library");
  BOOST_TEST(verdict.at(z.contradicted)
                 .second.at("by")
                 .get<std::string>()
                 .starts_with("library: neither side ahead"));
  BOOST_TEST(verdict.at(z.contradicted).second.at("library") == z.r2);
  BOOST_TEST(verdict.at(z.contradicted).second.at("library_us").get<double>() == 100.0);
}

void check_the_loaded_table(const fs::path& out, const agreement_sizes& z) {
  // The table loads; automatic and fastest_choice follow it.
  collectives::load_tuning(out.string());
  const auto shape = [](std::size_t bytes) {
    return collectives::call_shape{.coll = collective::allreduce, .p = 2, .bytes = bytes};
  };
  BOOST_TEST(to_string(collectives::automatic_choice(shape(z.kept))) == z.a1);
  BOOST_TEST(to_string(collectives::automatic_choice(shape(z.contradicted))) == z.r2);
  BOOST_TEST(to_string(collectives::automatic_choice(shape(z.noisy))) == z.r3);
  BOOST_TEST(to_string(collectives::automatic_choice(shape(z.unmeasured))) == z.r5);
  BOOST_TEST(to_string(collectives::automatic_choice(shape(z.close))) == z.r4);
  BOOST_TEST(collectives::fastest_choice(shape(z.kept)) == collectives::automatic_choice(shape(z.kept)));
  BOOST_TEST(collectives::fastest_choice(shape(z.contradicted)) ==
             collectives::automatic_choice(shape(z.contradicted)));
  collectives::clear_tuning();
}

}  // namespace

// automatic's ranges: an algorithm replaces the built-in rule's choice only where every run of every
// timing (two synchronized, one back to back and one as IMB times, the last two through the drop-in)
// puts it ahead by more than the noise; where one timing contradicts, a timing did not measure it,
// the runs disagree beyond their noise, or it is ahead within the noise, the rule's choice stays. Each range says why, each point
// carries the ratios against the rule's choice and the noise. The "fastest" verdict is the library
// only where it is ahead of vendor in every run and timing too.
BOOST_AUTO_TEST_CASE(automatic_keeps_an_algorithm_only_where_every_run_and_timing_agree) {
  const scratch s;
  const agreement_sizes z;
  const fs::path out = s.dir / "t.json";
  const json table = colltune(agreement_runs(s.dir, z), out);
  BOOST_TEST(table.at("provenance").at("imb_runs").at("2") == 1);
  BOOST_TEST(table.at("provenance").at("runs").at("2") == 2);
  BOOST_TEST(table.at("provenance").at("timings").get<std::string>() == "back-to-back, imb, synchronized");
  check_automatic_ranges(table, z);
  check_fastest_verdicts(table, z);
  check_the_loaded_table(out, z);
}

// Each timing is held to its own median and noise: the timings differ by design, so one timing's
// noise is not set against another's median. Three runs of each timing; vendor ÷ the library per run.
//   `apart`:  synchronized 0.61 0.64 0.66, back to back 0.34 0.36 0.70, IMB 0.34 0.36 0.62 — vendor
//             ahead in every run of every timing, and each timing's median beyond its own noise
//             (0.64 × 1.05, 0.36 × 1.94, 0.36 × 1.72, all below 1): vendor. (The median of all nine,
//             0.61, times the largest noise, 1.94, is above 1: that rule kept the library.)
//   `doubted`: synchronized 0.50 0.80 0.96, the others 0.30 0.31 0.32 — ahead in every run, but a
//             re-run of the synchronized timing that moves as far as its runs did (60%) from their
//             median 0.80 puts the library ahead: not ahead (0.31 × 1.6 < 1 would have said so);
//             vendor all the same, its worst timing (0.80) better than the library's (1 ÷ 0.31).
BOOST_AUTO_TEST_CASE(each_timing_is_held_to_its_own_noise) {
  const scratch s;
  const std::size_t apart = 1 << 20, doubted = 2 << 20;
  const std::string rule = other_and_rule(apart).second;
  BOOST_REQUIRE(rule == other_and_rule(doubted).second);
  const std::vector<std::tuple<const char*, double, double>> runs{
      // timing, vendor µs at apart, at doubted
      {"synchronized", 61, 50}, {"synchronized", 64, 80}, {"synchronized", 66, 96},
      {"back-to-back", 34, 30}, {"back-to-back", 36, 31}, {"back-to-back", 70, 32},
      {"imb", 34, 30},          {"imb", 36, 31},          {"imb", 62, 32}};
  std::vector<std::string> files;
  for (const auto& [timing, at_apart, at_doubted] : runs) {
    // The library's choice is the rule's, 100 µs; through the drop-in its MPI_* row serves it in 100.
    const bool dropin = std::string(timing) != "synchronized";
    files.push_back(write_rows(
        s.dir, fmt::format("run{}", files.size()), timing,
        rows_of({{apart, "", rule, 0, 100, at_apart, 100}, {doubted, "", rule, 0, 100, at_doubted, 100}},
                dropin)));
  }
  const json table = colltune(files, s.dir / "t.json");
  const auto verdict = fastest_points(table);
  BOOST_TEST(verdict.at(apart).first == "vendor");
  BOOST_TEST(verdict.at(apart).second.at("noise").get<double>() == 0.70 / 0.36 - 1,
             boost::test_tools::tolerance(1e-9));
  BOOST_TEST(verdict.at(doubted).first == "vendor");
  BOOST_TEST(
      verdict.at(doubted).second.at("by").get<std::string>().starts_with("vendor: neither side ahead"));
  BOOST_TEST(verdict.at(doubted).second.at("by").get<std::string>().find("synchronized 0.800, 60%") !=
                 std::string::npos,
             verdict.at(doubted).second.at("by"));
}

// The barrier stays the built-in rule's choice in both sections, whatever the runs say: the calls
// timed as applications see them start from a barrier, and which rank leaves it first decides who
// waits in the call after it (docs/tuning.md, "The barrier"). Here another barrier algorithm and
// vendor are both twice as fast as the rule's choice in every run of every timing.
BOOST_AUTO_TEST_CASE(the_barrier_stays_the_built_in_rules_choice) {
  const scratch s;
  const std::string rule(to_string(collectives::automatic_choice({.coll = collective::barrier, .p = 2})));
  const auto write = [&](const std::string& name, const std::string& mode, bool through_dropin) {
    std::vector<std::tuple<std::string, std::size_t, double>> rows;
    for (algorithm a : collectives::algorithms_for(collective::barrier))
      if (a != algorithm::vendor) rows.emplace_back(to_string(a), 0, to_string(a) == rule ? 100 : 50);
    // Vendor at 50: PMPI_Barrier through the drop-in (whose MPI_Barrier serves the rule's choice).
    rows.emplace_back(through_dropin ? "pmpi" : "vendor", 0, 50);
    if (through_dropin) rows.emplace_back("vendor", 0, 100);
    return write_rows(s.dir, name, mode, rows, "barrier");
  };
  const json table = colltune({write("sync0", "synchronized", false), write("sync1", "synchronized", false),
                               write("imb0", "imb", true), write("imb1", "imb", true)},
                              s.dir / "t.json");
  const json& chosen = table.at("collectives").at("barrier").at("2");
  BOOST_TEST_REQUIRE(chosen.size() == 1u);
  BOOST_TEST(chosen[0].at("algorithm") == rule);
  BOOST_TEST(chosen[0].at("why").get<std::string>().starts_with("rule: the barrier stays"));
  const json& fastest = table.at("fastest").at("barrier").at("2");
  BOOST_TEST_REQUIRE(fastest.size() == 1u);
  BOOST_TEST(fastest[0].at("fastest") == "library");
  BOOST_TEST(fastest[0].at("why").get<std::string>().starts_with("library: the barrier stays"));
  // What was measured is still shown: vendor at half the library's time in every run.
  const json& point = fastest[0].at("points")[0];
  for (const json& r : point.at("ratios").at("imb")) BOOST_TEST(r.get<double>() == 0.5);
  collectives::load_tuning((s.dir / "t.json").string());
  const collectives::call_shape shape{.coll = collective::barrier, .p = 2};
  BOOST_TEST(to_string(collectives::automatic_choice(shape)) == rule);
  BOOST_TEST(collectives::fastest_choice(shape) == collectives::automatic_choice(shape));
  collectives::clear_tuning();
}
