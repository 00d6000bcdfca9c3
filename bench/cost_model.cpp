// The cost table: one line per (collective, algorithm), as in the header comment of each
// algorithm's file (src/algorithms/<collective>/<algorithm>.cpp), rewritten for n = collbench's
// `bytes` (the whole array where metrics.hpp says so; the files' own n is often one block, n/p).
// When an algorithm's cost changes, change its line here; bench.unit fails for an algorithm of
// algorithms_for() without a line.
//
// ⌈log p⌉ is written log p. The power-of-two algorithms (recursive doubling and halving,
// Rabenseifner) run their core on p′ = the largest power of two ≤ p and fold the other ranks in
// and out; their lines give the core at p′ plus the fold's cost from the file's header. Local
// copies (Bruck's packing, binomial reduce's copies) are left out.

#include "cost_model.hpp"

#include <fmt/format.h>
#include <mpi.h>  // OMPI_MAJOR_VERSION: the vendor lines describe Open MPI's internals

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace collbench {
namespace {

using collectives::collective;

struct cost_input {
  double p;
  double lg;           ///< ⌈log₂ p⌉
  double q;            ///< p′: the largest power of two ≤ p
  double lq;           ///< log₂ p′
  bool fold;           ///< p is not a power of two
  bool root_sits_out;  ///< the root is one of the ranks the fold sets aside (pof2_fold.hpp)
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
  const double s = std::max(1.0, std::ceil(x.n / static_cast<double>(pipeline_segment_bytes())));
  return (x.p - 2 + s) * (x.a + x.n * x.b / s);
}

// clang-format off
constexpr cost_entry table[] = {
    {collective::broadcast, "naive", "(p−1)(α + nβ)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b); }},
    {collective::broadcast, "binomial", "log p(α + nβ)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b); }},
    {collective::broadcast, "pipeline", "(p−2+S)(α + nβ/S), S = ⌈n / 64 KiB⌉ segments", &pipeline_seconds},
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
    {collective::reduce, "rabenseifner",
     "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ; fold + 2α + nβ + nγ, and + α + n/2·β when the root sits out",
     [](const cost_input& x) {
       return 2 * x.lq * x.a + (x.q - 1) / x.q * x.n * (2 * x.b + x.g) +
              (x.fold ? 2 * x.a + x.n * (x.b + x.g) : 0) + (x.root_sits_out ? x.a + x.n / 2 * x.b : 0);
     }},

    {collective::allgather, "naive", "2(p−1)α + (p−1)(p+1)/p·nβ",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b; }},
    {collective::allgather, "ring", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::allgather, "recursive_doubling", "log p·α + (p−1)/p·nβ; fold + 2α + (n/p + n)β",
     [](const cost_input& x) {
       return x.lq * x.a + (x.q - 1) / x.q * x.n * x.b + (x.fold ? 2 * x.a + (x.n / x.p + x.n) * x.b : 0);
     }},
    {collective::allgather, "bruck", "log p·α + (p−1)/p·nβ",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},

    {collective::reduce_scatter, "naive", "2(p−1)α + (p−1)(p+1)/p·nβ + (p−1)·nγ",
     [](const cost_input& x) {
       return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b + (x.p - 1) * x.n * x.g;
     }},
    {collective::reduce_scatter, "ring", "(p−1)α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},
    {collective::reduce_scatter, "recursive_halving", "log p·α + (p−1)/p·n(β + γ); fold + 3α + n(β + γ) + n/p·β",
     [](const cost_input& x) {
       return x.lq * x.a + (x.q - 1) / x.q * x.n * (x.b + x.g) +
              (x.fold ? 3 * x.a + x.n * (x.b + x.g) + x.n / x.p * x.b : 0);
     }},
    {collective::reduce_scatter, "pairwise", "(p−1)α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},

    // naive's critical path lies between this and twice this (ranks wait on each other).
    {collective::alltoall, "naive", "(p−1)(α + nβ/p), at best",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }},
    {collective::alltoall, "pairwise", "(p−1)(α + nβ/p)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }},
    {collective::alltoall, "bruck", "log p(α + nβ/2)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b / 2); }},

    {collective::allreduce, "naive", "2(p−1)α + 2(p−1)·nβ + (p−1)·nγ",
     [](const cost_input& x) { return (x.p - 1) * (2 * x.a + 2 * x.n * x.b + x.n * x.g); }},
    {collective::allreduce, "ring", "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (2 * x.b + x.g); }},
    {collective::allreduce, "recursive_doubling", "log p(α + nβ + nγ); fold + 2(α + nβ) + nγ",
     [](const cost_input& x) {
       return x.lq * (x.a + x.n * x.b + x.n * x.g) + (x.fold ? 2 * (x.a + x.n * x.b) + x.n * x.g : 0);
     }},
    {collective::allreduce, "rabenseifner", "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ; fold + 3α + 2nβ + nγ",
     [](const cost_input& x) {
       return 2 * x.lq * x.a + (x.q - 1) / x.q * x.n * (2 * x.b + x.g) +
              (x.fold ? 3 * x.a + 2 * x.n * x.b + x.n * x.g : 0);
     }},

    // barrier moves no data (n = 0): latency terms only.
    {collective::barrier, "naive", "2(p−1)α",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a; }},
    {collective::barrier, "binomial", "2 log p·α",
     [](const cost_input& x) { return 2 * x.lg * x.a; }},
    {collective::barrier, "dissemination", "log p·α",
     [](const cost_input& x) { return x.lg * x.a; }},
    {collective::barrier, "recursive_doubling", "log p·α; fold + 2α",
     [](const cost_input& x) { return x.lq * x.a + (x.fold ? 2 * x.a : 0); }},

    {collective::scan, "naive", "(p−1)(α + nβ + nγ)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b + x.n * x.g); }},
    {collective::scan, "recursive_doubling", "log p(α + nβ) + (2 log p − 1)·nγ",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b) + (2 * x.lg - 1) * x.n * x.g; }},

    {collective::exscan, "naive", "(p−1)(α + nβ) + (p−2)·nγ",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b) + std::max(x.p - 2, 0.0) * x.n * x.g; }},
    {collective::exscan, "recursive_doubling", "log p(α + nβ) + (2 log p − 2)·nγ",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b) + (2 * x.lg - 2) * x.n * x.g; }},
    // The v-variants at equal blocks (--skew 0), the lines of their block forms; binomial gatherv
    // and scatterv also send the counts down the tree (8-byte counts, inner ranks only).
    {collective::gatherv, "naive", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::gatherv, "binomial", "2 log p·α + (p−1)/p·nβ + 8(p−1)β",
     [](const cost_input& x) { return 2 * x.lg * x.a + (x.p - 1) / x.p * x.n * x.b + 8 * (x.p - 1) * x.b; }},
    {collective::scatterv, "naive", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::scatterv, "binomial", "2 log p·α + (p−1)/p·nβ + 8(p−1)β",
     [](const cost_input& x) { return 2 * x.lg * x.a + (x.p - 1) / x.p * x.n * x.b + 8 * (x.p - 1) * x.b; }},
    {collective::allgatherv, "naive", "2(p−1)α + (p−1)(p+1)/p·nβ",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b; }},
    {collective::allgatherv, "ring", "(p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::allgatherv, "recursive_doubling", "log p·α + (p−1)/p·nβ; fold + 2α + (n/p + n)β",
     [](const cost_input& x) {
       return x.lq * x.a + (x.q - 1) / x.q * x.n * x.b + (x.fold ? 2 * x.a + (x.n / x.p + x.n) * x.b : 0);
     }},
    {collective::allgatherv, "bruck", "log p·α + (p−1)/p·nβ",
     [](const cost_input& x) { return x.lg * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::alltoallv, "naive", "(p−1)(α + nβ/p), at best",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }},
    {collective::alltoallv, "pairwise", "(p−1)(α + nβ/p)",
     [](const cost_input& x) { return (x.p - 1) * (x.a + x.n * x.b / x.p); }},
    {collective::reduce_scatterv, "naive", "2(p−1)α + (p−1)(p+1)/p·nβ + (p−1)·nγ",
     [](const cost_input& x) {
       return 2 * (x.p - 1) * x.a + (x.p - 1) * (x.p + 1) / x.p * x.n * x.b + (x.p - 1) * x.n * x.g;
     }},
    {collective::reduce_scatterv, "ring", "(p−1)α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},
    {collective::reduce_scatterv, "recursive_halving", "log p·α + (p−1)/p·n(β + γ); fold + 3α + n(β + γ) + n/p·β",
     [](const cost_input& x) {
       return x.lq * x.a + (x.q - 1) / x.q * x.n * (x.b + x.g) +
              (x.fold ? 3 * x.a + x.n * (x.b + x.g) + x.n / x.p * x.b : 0);
     }},
    {collective::reduce_scatterv, "pairwise", "(p−1)α + (p−1)/p·n(β + γ)",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (x.b + x.g); }},

    // hierarchical on one host, the only layout this model describes (one α-β pair): there each
    // runs the flat algorithm named; across hosts the costs are in the algorithms' headers.
    {collective::broadcast, "hierarchical", "one host: binomial's, log p(α + nβ)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b); }},
    {collective::reduce, "hierarchical", "one host: binomial's, log p(α + nβ + nγ)",
     [](const cost_input& x) { return x.lg * (x.a + x.n * x.b + x.n * x.g); }},
    {collective::allgather, "hierarchical", "one host: ring's, (p−1)α + (p−1)/p·nβ",
     [](const cost_input& x) { return (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * x.b; }},
    {collective::allreduce, "hierarchical", "one host: ring's, 2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ",
     [](const cost_input& x) { return 2 * (x.p - 1) * x.a + (x.p - 1) / x.p * x.n * (2 * x.b + x.g); }},
};
// clang-format on

// The vendor internals priced by a line of the table: Open MPI's coll/base (4.1) algorithm of
// that name runs the library's schedule (vendor:pipeline with the library's segment size, which
// variants.cpp sets), except where it switches to another algorithm, whose line then applies.
// Every other internal (chain, knomial, linear_sync, segmented_ring, …) has no line rather than
// a wrong one.
struct vendor_line {
  collective coll;
  std::string_view name;
  std::string_view note = {};                                        ///< where Open MPI switches
  std::string_view (*switched)(int p, std::size_t count) = nullptr;  ///< to which line; empty if not
};

constexpr vendor_line vendor_lines[] = {
    {collective::broadcast, "binomial"},
    {collective::broadcast, "pipeline"},
    {collective::scatter, "binomial"},
    {collective::gather, "binomial"},
    {collective::reduce, "binomial"},
    {collective::allgather, "ring"},
    {collective::allgather, "bruck"},
    {collective::allgather, "recursive_doubling", "Open MPI runs Bruck's when p is not a power of two",
     [](int p, std::size_t) -> std::string_view {
       return std::has_single_bit(static_cast<unsigned>(p)) ? "" : "bruck";
     }},
    {collective::alltoall, "pairwise"},
    {collective::alltoallv, "pairwise"},
    {collective::allreduce, "ring", "Open MPI runs recursive doubling below p elements",
     [](int p, std::size_t count) -> std::string_view {
       return count < static_cast<std::size_t>(p) ? "recursive_doubling" : "";
     }},
    {collective::allreduce, "recursive_doubling"},
    {collective::barrier, "linear", "Open MPI's linear barrier is the library's naive",
     [](int, std::size_t) -> std::string_view { return "naive"; }},
    {collective::barrier, "bruck", "Open MPI's bruck barrier is the dissemination barrier",
     [](int, std::size_t) -> std::string_view { return "dissemination"; }},
    {collective::barrier, "recursive_doubling"},
    {collective::scan, "linear", "Open MPI's linear scan is the library's naive chain",
     [](int, std::size_t) -> std::string_view { return "naive"; }},
    {collective::scan, "recursive_doubling"},
    {collective::exscan, "linear", "Open MPI's linear exscan is the library's naive chain",
     [](int, std::size_t) -> std::string_view { return "naive"; }},
    {collective::exscan, "recursive_doubling"},
};

// The lines describe Open MPI's algorithms: another library's internals of the same name (MPICH's
// recursive_doubling allgather, for one, is not Bruck's when p is not a power of two) get none.
const vendor_line* find_vendor([[maybe_unused]] collective c, [[maybe_unused]] std::string_view name) {
#ifdef OMPI_MAJOR_VERSION
  for (const vendor_line& v : vendor_lines)
    if (v.coll == c && v.name == name) return &v;
#endif
  return nullptr;
}

const cost_entry* find(collective c, std::string_view algorithm) {
  for (const cost_entry& e : table)
    if (e.coll == c && e.algorithm == algorithm) return &e;
  return nullptr;
}

// The line that prices `algorithm` (a row label) for a call of `count` elements on p ranks.
const cost_entry* find_line(collective c, std::string_view algorithm, int p, std::size_t count) {
  if (!algorithm.starts_with("vendor:")) return find(c, algorithm);
  algorithm.remove_prefix(7);
  const vendor_line* v = find_vendor(c, algorithm);
  if (!v) return nullptr;
  const std::string_view other = v->switched ? v->switched(p, count) : std::string_view{};
  return find(c, other.empty() ? algorithm : other);
}

}  // namespace

std::string cost_formula(collective c, std::string_view algorithm, int p) {
  const cost_entry* e = find_line(c, algorithm, p, static_cast<std::size_t>(-1));
  if (!e) return {};
  std::string text(e->formula);
  if (algorithm.starts_with("vendor:"))
    if (const vendor_line* v = find_vendor(c, algorithm.substr(7)); v && !v->note.empty())
      text += fmt::format(" ({})", v->note);
  return text;
}

std::optional<double> predict_seconds(collective c, std::string_view algorithm, const call_shape& call,
                                      const cost_params& m) {
  const cost_entry* e = find_line(c, algorithm, call.p, call.count);
  if (!e) return std::nullopt;
  const unsigned ranks = static_cast<unsigned>(std::max(call.p, 1));
  const double lg = std::bit_width(ranks - 1u);
  const unsigned q = std::bit_floor(ranks);
  const double lq = std::bit_width(q) - 1;
  // pof2_fold sets aside the even rank of each of the first p − p′ pairs.
  const unsigned root = static_cast<unsigned>(std::max(call.root, 0));
  const bool root_sits_out = root < 2 * (ranks - q) && root % 2 == 0;
  return e->seconds({static_cast<double>(call.p), lg, static_cast<double>(q), lq, q != ranks, root_sits_out,
                     call.n, m.alpha, m.beta, m.gamma});
}

std::size_t pipeline_segment_bytes() {
  constexpr std::size_t fallback = 65536;
  const char* text = std::getenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
  if (text == nullptr) return fallback;
  const std::string_view value(text);
  std::size_t bytes = 0;
  const auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), bytes);
  return status == std::errc() && end == value.data() + value.size() && bytes > 0 ? bytes : fallback;
}

}  // namespace collbench
