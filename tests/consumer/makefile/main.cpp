// SPDX-License-Identifier: BSD-3-Clause
// The Makefile consumer: an application built with mpicxx and pkg-config alone. It uses every
// compiled (non-template) function of the public API, so a function the library fails to export
// does not link, and checks each result against what it must be:
//  - all-reduce sums of rank·n + i (automatic and ring): closed form n·p(p−1)/2 + p·i;
//  - all-reduce with a user functor that is associative but does not commute, decimal
//    concatenation of the ranks' digits r+1: in rank order, 12…p;
//  - names, parsing and algorithm lists; argument-check level round trip; tuning (the rule's
//    choice, a missing table refused); tracing into memory;
//  - a bad root throws collectives::error inside the library and is caught here by type.
// Exits non-zero if any rank saw anything wrong, so the packaging test fails.

#include <mpi.h>

#include <algorithm>
#include <collectives/collectives.hpp>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace co = collectives;

namespace {

// Appends b's decimal digits to a's: associative (as MPI requires of every op, and as any
// bracketing of the fold assumes) but not commutative. Declares nothing, so it counts as
// non-commutative.
struct concatenate_digits {
  long operator()(long a, long b) const {
    long shift = 10;
    for (long rest = b / 10; rest > 0; rest /= 10) shift *= 10;
    return a * shift + b;
  }
};

int failures = 0;
int rank = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  ++failures;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  const long n = 1001;
  std::vector<long> mine(n), sum(n);
  for (long i = 0; i < n; ++i) mine[i] = rank * n + i;
  for (co::algorithm alg : {co::algorithm::automatic, co::algorithm::ring}) {
    std::fill(sum.begin(), sum.end(), -1);
    co::allreduce(mine, sum, co::ops::sum{}, MPI_COMM_WORLD, alg);
    long wrong = 0;
    for (long i = 0; i < n; ++i) wrong += sum[i] != n * p * (p - 1) / 2 + p * i;
    expect(wrong == 0, std::to_string(wrong) + " wrong sums with " + std::string(co::to_string(alg)));
  }

  std::vector<long> x(3, rank + 1), folded(3);
  co::allreduce(x, folded, concatenate_digits{}, MPI_COMM_WORLD);
  long expected = 0;
  for (long r = 0; r < p; ++r) expected = expected * 10 + (r + 1);  // 12…p (p ≤ 9)
  expect(std::all_of(folded.begin(), folded.end(), [&](long v) { return v == expected; }),
         "non-commutative fold " + std::to_string(folded[0]) + " != " + std::to_string(expected));

  expect(co::to_string(co::algorithm::ring) == "ring", "to_string(algorithm)");
  expect(co::to_string(co::collective::allreduce) == "allreduce", "to_string(collective)");
  expect(co::parse_algorithm("rabenseifner") == co::algorithm::rabenseifner, "parse_algorithm");
  expect(!co::parse_algorithm("no_such_algorithm"), "parse_algorithm of garbage");
  expect(co::parse_collective("allgather") == co::collective::allgather, "parse_collective");
  const auto algs = co::algorithms_for(co::collective::allreduce);
  expect(std::find(algs.begin(), algs.end(), co::algorithm::ring) != algs.end(), "algorithms_for");
  expect(co::all_collectives().size() >= 8, "all_collectives");
  expect(co::supports(co::collective::allreduce, co::algorithm::ring), "supports");
  expect(!co::keeps_rank_order(co::collective::allreduce, co::algorithm::ring), "keeps_rank_order");
  std::ostringstream os;
  os << co::algorithm::bruck << ' ' << co::collective::alltoall;
  expect(os.str() == "bruck alltoall", "operator<<: " + os.str());
  co::set_argument_checks(co::argument_checks::collective);
  expect(co::get_argument_checks() == co::argument_checks::collective, "argument checks level");
  co::set_argument_checks(co::argument_checks::local);

  // Tuning: no table loaded, automatic_choice is the built-in rule; a missing file throws.
  co::clear_tuning();
  expect(co::supports(co::collective::allreduce,
                      co::automatic_choice({.coll = co::collective::allreduce, .p = p, .bytes = 8})),
         "automatic_choice");
  bool refused = false;
  try {
    co::load_tuning("/nonexistent/tuning.json");
  } catch (const co::error&) {
    refused = true;
  }
  expect(refused, "load_tuning of a missing file did not throw collectives::error");

  // Tracing into memory: one traced all-reduce leaves a non-empty trace.
  co::trace_to_memory();
  expect(co::tracing(), "tracing() after trace_to_memory()");
  co::allreduce(mine, sum, co::ops::sum{}, MPI_COMM_WORLD);
  expect(!co::trace_take().empty(), "trace_take() after a traced call");
  co::trace_off();
  expect(!co::tracing(), "tracing() after trace_off()");

  std::vector<int> buf(4, rank);
  bool caught = false;
  try {
    co::broadcast(buf, /*root=*/p, MPI_COMM_WORLD);
  } catch (const co::error& e) {
    caught = std::string(e.what()).find("root") != std::string::npos;
  }
  expect(caught, "broadcast with root = p did not throw collectives::error naming the root");

  int any = 0;
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("makefile consumer: %d ranks, %s\n", p, any == 0 ? "correct" : "WRONG");
  MPI_Finalize();
  return any == 0 ? 0 : 1;
}
