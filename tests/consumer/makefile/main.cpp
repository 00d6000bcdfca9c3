// The Makefile consumer: an application built with mpicxx and pkg-config alone. It uses every
// compiled (non-template) function of the public API, so a function the library fails to export
// does not link, and checks each result against what it must be:
//  - all-reduce sums of rank·n + i (automatic and ring): closed form n·p(p−1)/2 + p·i;
//  - all-reduce with a user functor that does not commute, a·3 + b folded in rank order:
//    closed form Σ_r (r+1)·3^(p−1−r);
//  - names, parsing and algorithm lists; argument-check level round trip;
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

struct times3_plus {  // declares nothing, so it counts as non-commutative
  long operator()(long a, long b) const { return a * 3 + b; }
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
  co::allreduce(x, folded, times3_plus{}, MPI_COMM_WORLD);
  long expected = 0;
  for (long r = 0, w = 1; r < p; ++r, w *= 3) expected += (p - r) * w;  // Σ (r+1)·3^(p−1−r)
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
