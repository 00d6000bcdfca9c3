#include "pmpi/settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace collectives::pmpi {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::string choices_for(collective c) {
  std::string text = "automatic";
  for (algorithm a : algorithms_for(c)) text += fmt::format(", {}", to_string(a));
  return text;
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
  return text;
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
  const std::optional<algorithm> alg = parse_algorithm(alg_name);
  if (coll_name == "*") {
    bool any = false;
    for (collective c : all_collectives())
      if (alg && supports(c, *alg)) {
        s.chosen[static_cast<std::size_t>(c)] = *alg;
        any = true;
      }
    return any ? ""
               : bad(fmt::format("no collective has algorithm '{}'; valid: {}", alg_name,
                                 any_algorithm_names()));
  }
  const std::optional<collective> coll = parse_collective(coll_name);
  if (!coll) return bad(fmt::format("unknown collective '{}'; valid: {}", coll_name, collective_names()));
  if (!alg || !supports(*coll, *alg))
    return bad(fmt::format("{} has no algorithm '{}'; valid: {}", coll_name, alg_name, choices_for(*coll)));
  s.chosen[static_cast<std::size_t>(*coll)] = *alg;
  return "";
}

}  // namespace

settings parse_settings(const char* algorithms, const char* report) {
  settings s;
  s.chosen.assign(all_collectives().size(), algorithm::automatic);
  if (algorithms != nullptr) {
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

const settings& current_settings() {
  static const settings s =
      parse_settings(std::getenv("COLLECTIVES_ALGORITHMS"), std::getenv("COLLECTIVES_MPI_REPORT"));
  return s;
}

}  // namespace collectives::pmpi
