// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/settings.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "dispatch/registry.hpp"
#include "dispatch/tuning.hpp"

namespace collectives::pmpi {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

constexpr std::string_view fastest_name = "fastest";

std::string choices_for(collective c) {
  std::string text = "automatic";
  for (algorithm a : algorithms_for(c)) text += fmt::format(", {}", to_string(a));
  return fmt::format("{}, {}", text, fastest_name);
}

std::string collective_names() {
  std::string text;
  for (collective c : all_collectives()) text += fmt::format("{}, ", to_string(c));
  return text + "*";
}

// Every algorithm some collective has, for `*=name`.
std::string any_algorithm_names() {
  std::vector<algorithm> seen{algorithm::automatic};
  for (collective c : all_collectives())
    for (algorithm a : algorithms_for(c))
      if (std::find(seen.begin(), seen.end(), a) == seen.end()) seen.push_back(a);
  std::string text;
  for (algorithm a : seen) text += fmt::format("{}{}", text.empty() ? "" : ", ", to_string(a));
  return fmt::format("{}, {}", text, fastest_name);
}

// Sets collective `c` to `alg`, or to `fastest` (automatic wherever vendor is not faster).
void set_selection(settings& s, collective c, selection alg, bool fastest) {
  s.chosen[static_cast<std::size_t>(c)] = alg;
  s.fastest[static_cast<std::size_t>(c)] = fastest;
}

// What is wrong with the radix of `alg` for `c`, or "" (none, or one `c`'s algorithm takes).
// Whether it fits the communicator is make_plan's check (MPI_COMM_WORLD) and choose()'s.
std::string radix_problem(collective c, selection alg) {
  if (alg.radix == 0) return "";
  const std::string problem = detail::radix_problem(detail::find_algorithm(c, alg.alg), alg.radix, 0);
  return problem.empty() ? "" : fmt::format("{} {} {}", to_string(c), to_string(alg.alg), problem);
}

// The problem with one entry, or "" when it is valid (then applied to `s`).
std::string apply_entry(settings& s, std::string_view entry) {
  const auto bad = [&](std::string_view why) {
    return fmt::format("collectives_mpi: COLLECTIVES_ALGORITHMS entry '{}': {}", entry, why);
  };
  const std::size_t eq = entry.find('=');
  if (eq == std::string_view::npos)
    return bad(fmt::format("expected collective=algorithm; collectives: {}", collective_names()));
  const std::string_view coll_name = trim(entry.substr(0, eq)), alg_name = trim(entry.substr(eq + 1));
  const bool fastest = alg_name == fastest_name;
  const std::optional<selection> alg = fastest ? selection(algorithm::automatic) : parse_selection(alg_name);
  const std::size_t colon = alg_name.find(':');
  if (!alg && colon != std::string_view::npos && parse_algorithm(alg_name.substr(0, colon)))
    return bad("the radix after ':' must be a whole number of at least 2");
  if (fastest && s.fastest_entry.empty()) s.fastest_entry = entry;
  if (coll_name == "*") {
    bool any = false;
    for (collective c : all_collectives())
      if (alg && (fastest || supports(c, alg->alg)) && radix_problem(c, *alg).empty()) {
        set_selection(s, c, *alg, fastest);
        any = true;
      }
    return any ? ""
               : bad(fmt::format("no collective has algorithm '{}'; valid: {}", alg_name,
                                 any_algorithm_names()));
  }
  const std::optional<collective> coll = parse_collective(coll_name);
  if (!coll) return bad(fmt::format("unknown collective '{}'; valid: {}", coll_name, collective_names()));
  if (!alg || !(fastest || supports(*coll, alg->alg)))
    return bad(fmt::format("{} has no algorithm '{}'; valid: {}", coll_name, alg_name, choices_for(*coll)));
  if (const std::string problem = radix_problem(*coll, *alg); !problem.empty()) return bad(problem);
  set_selection(s, *coll, *alg, fastest);
  return "";
}

}  // namespace

settings parse_settings(const char* algorithms, const char* report) {
  settings s;
  s.chosen.assign(all_collectives().size(), selection(algorithm::automatic));
  s.fastest.assign(all_collectives().size(), false);
  if (algorithms != nullptr && trim(algorithms) == "help") {
    s.help = true;
  } else if (algorithms != nullptr) {
    s.algorithms_text = algorithms;
    std::string_view rest = algorithms;
    while (s.problem.empty() && !rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view entry = trim(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (!entry.empty()) s.problem = apply_entry(s, entry);
    }
  }
  if (report != nullptr && *report != '\0' && std::string_view(report) != "0")
    s.report_to = std::string_view(report) == "1" ? std::string("-") : std::string(report);
  return s;
}

std::string radix_above_world(const settings& s, int world_size) {
  const int most = std::max(world_size, 2);
  for (collective c : all_collectives()) {
    const selection a = s.for_collective(c);
    if (a.radix > most)
      return fmt::format(
          "collectives_mpi: COLLECTIVES_ALGORITHMS '{}': {} {} takes a radix from 2 to the {} "
          "ranks of MPI_COMM_WORLD, given {}",
          s.algorithms_text, to_string(c), to_string(a.alg), most, a.radix);
  }
  return "";
}

std::string fastest_problem(const settings& s) {
  if (std::find(s.fastest.begin(), s.fastest.end(), true) == s.fastest.end()) return "";
  try {
    if (detail::active_tuning() != nullptr) return "";
  } catch (const std::exception& e) {
    return fmt::format("collectives_mpi: COLLECTIVES_ALGORITHMS entry '{}': {}", s.fastest_entry, e.what());
  }
  return fmt::format(
      "collectives_mpi: COLLECTIVES_ALGORITHMS entry '{}': needs the decision table of this machine, "
      "and COLLECTIVES_TUNING is not set (scripts/mpirun/tune.sh writes one)",
      s.fastest_entry);
}

std::string help_text() {
  std::string text = fmt::format(
      "COLLECTIVES_ALGORITHMS: which algorithm the drop-in (libcollectives_mpi) runs for each collective,\n"
      "as comma-separated entries collective=algorithm, e.g. allreduce=ring,broadcast=binomial.\n"
      "  collective: one of those below, or * (every collective that has the algorithm)\n"
      "  algorithm:  one of the collective's below (vendor: forward the call to the MPI library), or\n"
      "              automatic (the default: the library's rule, or COLLECTIVES_TUNING's table), or\n"
      "              {} (per call the MPI library or the library, whichever COLLECTIVES_TUNING's\n"
      "              table measured faster)\n"
      "  algorithm:k the radix-k algorithms (knomial, recursive_multiplying, k_dissemination, k_bruck)\n"
      "              at radix k >= 2, e.g. allreduce=recursive_multiplying:8 (default 4; at most MPI_COMM_WORLD's\n"
      "              size, and a smaller communicator's own)\n"
      "Every collective and its algorithms:\n",
      fastest_name);
  for (collective c : all_collectives()) {
    text += fmt::format("{}:", to_string(c));
    for (algorithm a : algorithms_for(c)) text += fmt::format(" {}", to_string(a));
    text += '\n';
  }
  return text;
}

void exit_with_help() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::fputs(help_text().c_str(), stdout);
    std::fflush(stdout);
  }
  PMPI_Finalize();
  std::exit(0);
}

const settings& current_settings() {
  static const settings s =
      parse_settings(std::getenv("COLLECTIVES_ALGORITHMS"), std::getenv("COLLECTIVES_MPI_REPORT"));
  return s;
}

}  // namespace collectives::pmpi
