// The cost table: one line per (collective, algorithm), as in the header comment of each
// algorithm's file (src/algorithms/<collective>/<algorithm>.cpp), rewritten for n = collbench's
// `bytes` (the whole array where metrics.hpp says so; the files' own n is often one block, n/p).
// Algorithms not yet written have the textbook formula; when one lands with a different cost,
// change its line here.
//
// log p is ⌈log₂ p⌉. The power-of-two algorithms fold the extra ranks of a non-power-of-two p in
// and out, a cost the lines below leave out (collbench's main job runs p = 2 and 4).
// pipeline is modelled with its best segment count S = √((p−2)·nβ/α) (at least 1): the
// prediction is what the best segment size would give.

#include "cost_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace collbench {
namespace {

using collectives::collective;

struct cost_input {
  double p;
  double lg;  ///< ⌈log₂ p⌉
  double n;
  double a, b, g;
};

struct cost_entry {
  collective coll;
  std::string_view algorithm;
  std::string_view formula;
  double (*seconds)(const cost_input&);
};

double pipeline_seconds(const cost_input& x) {
  const double s =
      x.a > 0 && x.p > 2 ? std::max(1.0, std::round(std::sqrt((x.p - 2) * x.n * x.b / x.a))) : 1.0;
  return (x.p - 2 + s) * (x.a + x.n * x.b / s);
}

// clang-format off
constexpr cost_entry table[] = {
    {collective::broadcast, "naive", "(p−1)(α + nβ)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b); }},
    {collective::broadcast, "binomial", "⌈log p⌉(α + nβ)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b); }},
    {collective::broadcast, "pipeline", "(p−2+S)(α + nβ/S), S segments (best S)", &pipeline_seconds},
    {collective::broadcast, "scatter_allgather", "(log p + p−1)α + 2(p−1)/p·nβ",
     [](const cost_input& x) { return (x.lg + x.p - 1) * x.a + 2 * (x.p - 1) / x.p * x.n * x.b; }},

    {collective::scatter, "naive", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::scatter, "binomial", "log p·α + (p−1)/p·nβ",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},

    {collective::gather, "naive", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::gather, "binomial", "log p·α + (p−1)/p·nβ",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},

    {collective::reduce, "naive", "(p−1)(α + nβ + nγ)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b + x.n * x.g); }},
    {collective::reduce, "binomial", "log p(α + nβ + nγ)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b + x.n * x.g); }},
    {collective::reduce, "rabenseifner", "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ",
     [](const cost_input& x) { return 2 * x.lg * x.a + (x.p - 1) / x.p * x.n * (2 * x.b + x.g); }},

    {collective::allgather, "naive", "2(p−1)α + (p−1)(p+1)/p·nβ",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b; }},
    {collective::allgather, "ring", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::allgather, "recursive_doubling", "log p·α + (p−1)/p·nβ",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::allgather, "bruck", "⌈log p⌉α + (p−1)/p·nβ",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},

    {collective::reduce_scatter, "naive", "2(p−1)α + (p−1)(p+1)/p·nβ + (p−1)·nγ",
     [](const cost_input& x) {
       return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b + (x.p - 1) * x.n * x.g;
     }},
    {collective::reduce_scatter, "ring", "(p−1)α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},
    {collective::reduce_scatter, "recursive_halving", "log p·α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},
    {collective::reduce_scatter, "pairwise", "(p−1)α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},

    // naive's critical path lies between this and twice this (ranks wait on each other).
    {collective::alltoall, "naive", "(p−1)(α + nβ/p), at best",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }},
    {collective::alltoall, "pairwise", "(p−1)(α + nβ/p)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }},
    {collective::alltoall, "bruck", "⌈log p⌉(α + nβ/2)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b / 2); }},

    {collective::allreduce, "naive", "2(p−1)α + 2(p−1)·nβ + (p−1)·nγ",
     [](const cost_input& x) { return (x.p - 1) * (2 * x.a + 2 * x.n * x.b + x.n * x.g); }},
    {collective::allreduce, "ring", "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (2 * x.b + x.g); }},
    {collective::allreduce, "recursive_doubling", "log p(α + nβ + nγ)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b + x.n * x.g); }},
    {collective::allreduce, "rabenseifner", "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ",
     [](const cost_input& x) { return 2 * x.lg * x.a + (x.p - 1) / x.p * x.n * (2 * x.b + x.g); }},
};
// clang-format on

const cost_entry* find(collective c, std::string_view algorithm) {
  if (algorithm.starts_with("vendor:")) algorithm.remove_prefix(7);
  for (const cost_entry& e : table)
    if (e.coll == c && e.algorithm == algorithm) return &e;
  return nullptr;
}

}  // namespace

std::string_view cost_formula(collective c, std::string_view algorithm) {
  const cost_entry* e = find(c, algorithm);
  return e ? e->formula : std::string_view{};
}

std::optional<double> predict_seconds(collective c, std::string_view algorithm, int p, double n,
                                      const cost_params& m) {
  const cost_entry* e = find(c, algorithm);
  if (!e) return std::nullopt;
  const double lg = std::bit_width(static_cast<unsigned>(std::max(p, 1)) - 1u);
  return e->seconds({static_cast<double>(p), lg, n, m.alpha, m.beta, m.gamma});
}

}  // namespace collbench
