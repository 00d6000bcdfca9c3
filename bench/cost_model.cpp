// SPDX-License-Identifier: BSD-3-Clause
// The cost lines, as text: one per (collective, algorithm), what the library's transport spends
// (the "Transport:" line of the algorithm's header comment) and, where it differs, the textbook
// cost (a concurrent send-receive per exchange, copies left out: the "Cost:" line, as the
// literature and MPICH give it). They are for readers: the model's numbers come from the priced
// schedule (price.hpp), what the algorithm's code really sends, not from these lines. bench.unit
// fails for an algorithm of algorithms_for() without a line, and for a header whose Transport:
// line differs from its line here.
//
// The lines count in messages of m bytes: t(m) forwards bytes the sender just wrote (received,
// reduced, copied), u(m) sends bytes it left untouched (its caller's input, a broadcast root's
// buffer); 2t(m) an exchange with a pairing (one side sends, then the other); R(S) the messages on
// the critical path of S steps of a ring (2S, plus ⌈2S/(p−1)⌉ when p is odd: two adjacent ranks
// send first); X(k₁…; m₁…) a series of shifts by k₁, k₂, … of m₁, m₂, … bytes (Xᵤ: of the
// caller's input); γ per byte reduced, δ per byte copied. Below the eager size E both partners of
// an exchange send first, and each exchange costs one message. n = collbench's `bytes` (the whole
// array where metrics.hpp says so); ⌈log p⌉ is written log p; p′ is the largest power of two ≤ p,
// on which recursive doubling and halving and Rabenseifner run their core, folding the other ranks
// in and out.

#include "cost_model.hpp"

#include <fmt/format.h>
#include <mpi.h>  // OMPI_MAJOR_VERSION: the vendor lines describe Open MPI's internals

#include <bit>
#include <charconv>
#include <cstdlib>
#include <string>

namespace collbench {
namespace {

using collectives::collective;

struct cost_entry {
  collective coll;
  std::string_view algorithm;
  std::string_view formula;        ///< on our transport
  std::string_view textbook = {};  ///< with a concurrent send-receive, copies left out; empty: the same
};

// clang-format off
const cost_entry table[] = {
    {collective::broadcast, "naive", "(p−1)·u(n)"},
    {collective::broadcast, "binomial", "u(n) + (log p − 1)·t(n)"},
    {collective::broadcast, "pipeline", "(2S + p − 3)·t(n/S), S = ⌈n / 64 KiB⌉ segments (p = 2: S·u(n/S))", "(p−2+S)(α + nβ/S)"},
    {collective::broadcast, "scatter_allgather", "u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + R(p−1)·t(n/p)", "(log p + p−1)α + 2(p−1)/p·nβ"},
    {collective::broadcast, "scatter_recursive_doubling", "u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1); fold + t(n/p) + t(n)", "2 log p·α + 2(p−1)/p·nβ; fold + 2α + (n/p + n)β"},
    {collective::broadcast, "pipelined_tree", "(2·⌊log p⌋ + 3(S − 1))·t(n/S), S = ⌈n / 32 KiB⌉ segments (p = 2: S·u(n/S); p = 3: 2S·u(n/S))"},
    {collective::scatter, "naive", "n/p·δ + (p−1)·u(n/p)", "(p−1)α + (p−1)/p·nβ"},
    {collective::scatter, "binomial", "u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + n/p·δ", "log p·α + (p−1)/p·nβ"},
    {collective::gather, "naive", "n/p·δ + (p−1)·u(n/p)", "(p−1)α + (p−1)/p·nβ"},
    {collective::gather, "binomial", "u(n/p) + Σᵢ t(n/2ⁱ) (i = 1…log p − 1) + n/p·δ", "log p·α + (p−1)/p·nβ"},
    {collective::reduce, "naive", "(p−1)(u(n) + nγ)"},
    {collective::reduce, "binomial", "u(n) + (log p − 1)·t(n) + log p·nγ (root 0)"},
    {collective::reduce, "rabenseifner", "2u(n/2) + t(n/2) + 3Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ; fold + 2u(n/2) + nγ, and + t(n/2) when the root sits out", "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ; fold + 2α + nβ + nγ, and + α + n/2·β when the root sits out"},
    {collective::reduce, "pipelined_tree", "(2·⌊log p⌋ + 3(S − 1))·t(n/S) + 2(⌊log p⌋ + S − 1)·(n/S)γ, S = ⌈n / 32 KiB⌉ segments (p = 2: S·u(n/S) + nγ; p = 3: 2S·u(n/S) + 2nγ)"},
    {collective::allgather, "naive", "n/p·δ + (p−1)·u(n/p) + (p−1)·t(n)", "2(p−1)α + (p−1)(p+1)/p·nβ"},
    {collective::allgather, "ring", "n/p·δ + R(p−1)·t(n/p)", "(p−1)α + (p−1)/p·nβ"},
    {collective::allgather, "recursive_doubling", "n/p·δ + 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1); fold + u(n/p) + t(n)", "log p·α + (p−1)/p·nβ; fold + 2α + (n/p + n)β"},
    {collective::allgather, "bruck", "n/p·δ + X(−1, −2, −4, …; min(d, p−d)·n/p) + (n + ⌊p/2⌋·n/p)δ (rotation)", "log p·α + (p−1)/p·nβ"},
    {collective::reduce_scatter, "naive", "(p−1)(u(n) + nγ) + n/p·δ + (p−1)·t(n/p)", "2(p−1)α + (p−1)(p+1)/p·nβ + (p−1)·nγ"},
    {collective::reduce_scatter, "ring", "2u(n/p) + (R(p−1) − 2)·t(n/p) + (p−1)/p·nγ", "(p−1)α + (p−1)/p·n(β + γ)"},
    {collective::reduce_scatter, "recursive_halving", "2u(n/2) + 2Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ + n/p·δ; fold + 2u(n/2) + nγ + t(n/p)", "log p·α + (p−1)/p·n(β + γ); fold + 3α + n(β + γ) + n/p·β"},
    {collective::reduce_scatter, "pairwise", "Xᵤ(1, 2, …, p−1; n/p) + (p−1)/p·nγ", "(p−1)α + (p−1)/p·n(β + γ)"},
    // naive's critical path lies between this and about twice this (ranks wait on each other).
    {collective::alltoall, "naive", "n/p·δ + 2(p−1)·u(n/p), at best", "(p−1)(α + nβ/p), at best"},
    {collective::alltoall, "pairwise", "n/p·δ + Xᵤ(1, 2, …, p−1; n/p)", "(p−1)(α + nβ/p)"},
    {collective::alltoall, "bruck", "X(1, 2, 4, …; the blocks with bit d, about n/2) + (2n + 2·packed)·δ", "log p(α + nβ/2)"},
    {collective::allreduce, "naive", "(p−1)(u(n) + nγ) + (p−1)·t(n)"},
    {collective::allreduce, "ring", "2u(n/p) + (R(2(p−1)) − 2)·t(n/p) + (p−1)/p·nγ", "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ"},
    // The first step sends the caller's input (u), except from the ranks the fold has combined into.
    {collective::allreduce, "recursive_doubling", "nδ + 2u(n) + (log p′ − 1)·2t(n) + log p′·nγ; fold + u(n) + t(n) + nγ, its first step up to 2t(n)", "log p(α + nβ + nγ); fold + 2(α + nβ) + nγ"},
    // Halving at distance 1 first, doubling back from p′/2: every rank sends n/2, n/4, … and back.
    {collective::allreduce, "rabenseifner", "2u(n/2) + 2t(n/2) + 4Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ; fold + 2u(n/2) + t(n) + nγ", "2 log p·α + 2(p−1)/p·nβ + (p−1)/p·nγ; fold + 3α + 2nβ + nγ"},
    // barrier moves no data (n = 0): latency terms only.
    {collective::barrier, "naive", "2(p−1)α"},
    {collective::barrier, "binomial", "2 log p·α"},
    {collective::barrier, "dissemination", "X(1, 2, 4, …; 0)", "log p·α"},
    {collective::barrier, "recursive_doubling", "2 log p′·α; fold + 2α", "log p·α; fold + 2α"},
    {collective::scan, "naive", "nδ + (p−1)(t(n) + nγ)", "(p−1)(α + nβ + nγ)"},
    {collective::scan, "recursive_doubling", "nδ + 2u(n) + 2(log p − 1)·t(n) + (2 log p − 1)·nγ", "log p(α + nβ) + (2 log p − 1)·nγ"},
    {collective::exscan, "naive", "u(n) + (p−2)·(t(n) + nγ)"},
    {collective::exscan, "recursive_doubling", "2u(n) + 2(log p − 1)·t(n) + (2 log p − 2)·nγ (+ nδ from p = 3 on)", "log p(α + nβ) + (2 log p − 2)·nγ"},
    // The v-variants at equal blocks (--skew 0), the lines of their block forms; binomial gatherv
    // and scatterv also send the counts down the tree first (log p·α: 8-byte counts).
    {collective::gatherv, "naive", "n/p·δ + (p−1)·u(n/p)", "(p−1)α + (p−1)/p·nβ"},
    {collective::gatherv, "binomial", "log p·α + u(n/p) + Σᵢ t(n/2ⁱ) (i = 1…log p − 1) + n/p·δ", "2 log p·α + (p−1)/p·nβ + 8(p−1)β"},
    {collective::scatterv, "naive", "n/p·δ + (p−1)·u(n/p)", "(p−1)α + (p−1)/p·nβ"},
    {collective::scatterv, "binomial", "log p·α + u(n/2) + Σᵢ t(n/2ⁱ) (i = 2…log p) + n/p·δ", "2 log p·α + (p−1)/p·nβ + 8(p−1)β"},
    {collective::allgatherv, "naive", "n/p·δ + (p−1)·u(n/p) + (p−1)·t(n)", "2(p−1)α + (p−1)(p+1)/p·nβ"},
    {collective::allgatherv, "ring", "n/p·δ + R(p−1)·t(n/p)", "(p−1)α + (p−1)/p·nβ"},
    {collective::allgatherv, "recursive_doubling", "n/p·δ + 2Σᵢ t(2ⁱ·n/p′) (i = 0…log p′ − 1); fold + u(n/p) + t(n)", "log p·α + (p−1)/p·nβ; fold + 2α + (n/p + n)β"},
    {collective::allgatherv, "bruck", "n/p·δ + X(−1, −2, −4, …; min(d, p−d)·n/p) + (n + ⌊p/2⌋·n/p)δ (rotation)", "log p·α + (p−1)/p·nβ"},
    {collective::alltoallv, "naive", "n/p·δ + 2(p−1)·u(n/p), at best", "(p−1)(α + nβ/p), at best"},
    {collective::alltoallv, "pairwise", "n/p·δ + Xᵤ(1, 2, …, p−1; n/p)", "(p−1)(α + nβ/p)"},
    {collective::reduce_scatterv, "naive", "(p−1)(u(n) + nγ) + n/p·δ + (p−1)·t(n/p)", "2(p−1)α + (p−1)(p+1)/p·nβ + (p−1)·nγ"},
    {collective::reduce_scatterv, "ring", "2u(n/p) + (R(p−1) − 2)·t(n/p) + (p−1)/p·nγ + n/p·δ", "(p−1)α + (p−1)/p·n(β + γ)"},
    {collective::reduce_scatterv, "recursive_halving", "2u(n/2) + 2Σᵢ t(n/2ⁱ) (i = 2…log p′) + (p′−1)/p′·nγ + n/p·δ; fold + 2u(n/2) + nγ + t(n/p)", "log p·α + (p−1)/p·n(β + γ); fold + 3α + n(β + γ) + n/p·β"},
    {collective::reduce_scatterv, "pairwise", "Xᵤ(1, 2, …, p−1; n/p) + (p−1)/p·nγ", "(p−1)α + (p−1)/p·n(β + γ)"},
    // hierarchical on one host: there each runs the flat algorithm named, and its line is that
    // algorithm's; across hosts the costs are in the algorithms' headers.
    {collective::broadcast, "hierarchical", "one host: binomial's, u(n) + (log p − 1)·t(n)"},
    {collective::reduce, "hierarchical", "one host: binomial's, u(n) + (log p − 1)·t(n) + log p·nγ (root 0)"},
    {collective::allgather, "hierarchical", "one host: ring's, n/p·δ + R(p−1)·t(n/p)", "one host: ring's, (p−1)α + (p−1)/p·nβ"},
    {collective::allreduce, "hierarchical", "one host: ring's, 2u(n/p) + (R(2(p−1)) − 2)·t(n/p) + (p−1)/p·nγ", "one host: ring's, 2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ"},
};
// clang-format on

// The vendor internals that run one of the library's schedules: Open MPI's coll/base (4.1)
// algorithm of that name (vendor:pipeline with the library's segment size, which variants.cpp
// sets), except where it switches to another algorithm, whose schedule then applies. Every other
// internal (chain, knomial, linear_sync, segmented_ring, …) has no price rather than a wrong one.
struct vendor_line {
  collective coll;
  std::string_view name;
  std::string_view note = {};                                        ///< where Open MPI switches
  std::string_view (*switched)(int p, std::size_t count) = nullptr;  ///< to which line; empty if not
};

const vendor_line vendor_lines[] = {
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

}  // namespace

std::string cost_formula(collective c, std::string_view algorithm, int p) {
  if (!algorithm.starts_with("vendor:")) {
    const cost_entry* e = find(c, algorithm);
    return e ? std::string(e->formula) : std::string();
  }
  const vendor_line* v = find_vendor(c, algorithm.substr(7));
  const cost_entry* e = v ? find(c, vendor_schedule(c, algorithm.substr(7), p, static_cast<std::size_t>(-1))) : nullptr;
  if (!e) return {};
  std::string text(e->textbook.empty() ? e->formula : e->textbook);
  if (!v->note.empty()) text += fmt::format(" ({})", v->note);
  return text;
}

std::string_view vendor_schedule(collective c, std::string_view name, int p, std::size_t count) {
  const vendor_line* v = find_vendor(c, name);
  if (!v) return {};
  const std::string_view other = v->switched ? v->switched(p, count) : std::string_view{};
  return other.empty() ? v->name : other;
}

std::size_t pipeline_segment_bytes(std::size_t unset) {
  const char* text = std::getenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
  if (text == nullptr) return unset;
  const std::string_view value(text);
  std::size_t bytes = 0;
  const auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), bytes);
  return status == std::errc() && end == value.data() + value.size() && bytes > 0 ? bytes : unset;
}

}  // namespace collbench
