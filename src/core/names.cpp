// Names, parsing and the per-collective algorithm lists of the public algorithm.hpp.

#include <array>
#include <ostream>
#include <vector>

#include "collectives/algorithm.hpp"
#include "core/registry.hpp"

namespace collectives {
namespace {

constexpr std::array<std::string_view, 14> algorithm_names{"automatic",
                                                           "vendor",
                                                           "naive",
                                                           "binomial",
                                                           "pipeline",
                                                           "scatter_allgather",
                                                           "ring",
                                                           "recursive_doubling",
                                                           "recursive_halving",
                                                           "rabenseifner",
                                                           "bruck",
                                                           "pairwise",
                                                           "dissemination",
                                                           "hierarchical"};

constexpr std::array<std::string_view, 16> collective_names{
    "broadcast", "scatter", "gather", "reduce",   "allgather", "reduce_scatter", "alltoall",  "allreduce",
    "barrier",   "scan",    "exscan", "gatherv",  "scatterv",  "allgatherv",     "alltoallv", "reduce_scatterv"};

constexpr std::array<collective, 16> every_collective{
    collective::broadcast,  collective::scatter,   collective::gather,         collective::reduce,
    collective::allgather,  collective::reduce_scatter, collective::alltoall,  collective::allreduce,
    collective::barrier,    collective::scan,      collective::exscan,         collective::gatherv,
    collective::scatterv,   collective::allgatherv, collective::alltoallv,     collective::reduce_scatterv};

}  // namespace

std::span<const algorithm> algorithms_for(collective c) {
  // Built once from the registry, in its order.
  static const std::array<std::vector<algorithm>, collective_names.size()> lists = [] {
    std::array<std::vector<algorithm>, collective_names.size()> l;
    for (const detail::algorithm_entry& e : detail::registry())
      l[static_cast<std::size_t>(e.coll)].push_back(e.alg);
    return l;
  }();
  return lists.at(static_cast<std::size_t>(c));
}

std::span<const collective> all_collectives() { return every_collective; }

bool supports(collective c, algorithm a) {
  return a == algorithm::automatic || detail::find_algorithm(c, a) != nullptr;
}

bool keeps_rank_order(collective c, algorithm a) {
  const detail::algorithm_entry* e = detail::find_algorithm(c, a);
  return e == nullptr || e->keeps_rank_order;
}

// A value outside the enumeration (a cast from a bad integer) gets a name that says so,
// rather than an exception from inside an error message.
std::string_view to_string(algorithm a) {
  const auto i = static_cast<std::size_t>(a);
  return i < algorithm_names.size() ? algorithm_names[i] : "(not an algorithm)";
}
std::string_view to_string(collective c) {
  const auto i = static_cast<std::size_t>(c);
  return i < collective_names.size() ? collective_names[i] : "(not a collective)";
}

std::optional<algorithm> parse_algorithm(std::string_view name) {
  for (std::size_t i = 0; i < algorithm_names.size(); ++i)
    if (algorithm_names[i] == name) return static_cast<algorithm>(i);
  return std::nullopt;
}

std::optional<collective> parse_collective(std::string_view name) {
  for (std::size_t i = 0; i < collective_names.size(); ++i)
    if (collective_names[i] == name) return static_cast<collective>(i);
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& os, algorithm a) { return os << to_string(a); }
std::ostream& operator<<(std::ostream& os, collective c) { return os << to_string(c); }

}  // namespace collectives
