// SPDX-License-Identifier: BSD-3-Clause
// Proves that a vendor:<name> row really runs that internal algorithm of the MPI library: each
// algorithm leaves a signature in how often, and on which ranks, a counting reduction op is
// called by an allreduce of n elements on 4 ranks. What each library's algorithms leave is in
// bench/README.md (bench.vendor_forcing) and above check_open_mpi and check_mpich below; without
// either library's control variables there is nothing to check.
// Run with 4 ranks; exit status 0 on success.

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "measure/variants.hpp"
#include "vendors/ompi41.hpp"

namespace {

long calls = 0, elements = 0;

void counting_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  ++calls;
  elements += *len;
  const double* a = static_cast<const double*>(in);
  double* b = static_cast<double*>(inout);
  for (int i = 0; i < *len; ++i) b[i] += a[i];
}

struct signature {
  std::vector<long> calls, elements;  // per rank
  bool operator==(const signature&) const = default;
};

signature run(MPI_Comm comm, MPI_Op op, int n, const collbench::variant& forced = {}) {
  std::vector<double> in(static_cast<std::size_t>(n), 1.0), out(static_cast<std::size_t>(n));
  calls = elements = 0;
  {
    const collbench::forcing_scope forcing(forced);
    MPI_Allreduce(in.data(), out.data(), n, MPI_DOUBLE, op, comm);
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  signature s{std::vector<long>(static_cast<std::size_t>(size)),
              std::vector<long>(static_cast<std::size_t>(size))};
  MPI_Allgather(&calls, 1, MPI_LONG, s.calls.data(), 1, MPI_LONG, MPI_COMM_WORLD);
  MPI_Allgather(&elements, 1, MPI_LONG, s.elements.data(), 1, MPI_LONG, MPI_COMM_WORLD);
  return s;
}

int rank = 0, failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok && rank == 0) std::fprintf(stderr, "vendor_forcing_test: FAILED: %s\n", what.c_str());
  failures += !ok;
}

// MPICH's algorithm variables act per call (forcing_scope). MPICH 4.0 runs
// reduce_scatter_allgather only for predefined ops and otherwise falls back to its default,
// recursive doubling, so a counting user op cannot tell the two apart: this checks recursive
// doubling's signature (n reduced twice on every rank) and that a call after the scope has ended
// makes MPICH's default decision again. The algorithm names read from MPICH's descriptions are
// whole (the longest and the shortest broadcast names among them).
void check_mpich(collbench::vendor_internals& internals, MPI_Op op, int n) {
  const auto variant_of = [&](collectives::collective c, const std::string& name) {
    for (const collbench::vendor_internal& v : internals.available())
      if (v.coll == c && v.name == name)
        return collbench::variant{"vendor:" + name, collectives::algorithm::vendor, internals.communicator(v),
                                  internals.per_call(v)};
    expect(false, "MPICH offers no " + std::string(to_string(c)) + " algorithm '" + name + "'");
    return collbench::variant{};
  };
  const signature default_before = run(MPI_COMM_WORLD, op, n);
  const collbench::variant rd = variant_of(collectives::collective::allreduce, "recursive_doubling");
  variant_of(collectives::collective::allreduce, "reduce_scatter_allgather");
  if (!rd.per_call.empty()) {
    const signature d = run(rd.forced_comm, op, n, rd);
    expect(d.elements == std::vector<long>(4, 2L * n),
           "vendor:recursive_doubling reduces n twice everywhere");
    expect(run(MPI_COMM_WORLD, op, n) == default_before,
           "a call after the forcing scope makes MPICH's default decision again");
  }
  variant_of(collectives::collective::broadcast, "scatter_recursive_doubling_allgather");
  variant_of(collectives::collective::broadcast, "nb");
  for (const collbench::vendor_internal& v : internals.available())
    expect(v.name.find("algorithm") == std::string::npos && v.name != "auto",
           "a name read from MPICH's description is whole: " + v.name);
  // Every collective of the library, the newer ones (barrier, scans, v-variants) included,
  // has MPICH internals to compare with.
  for (collectives::collective c : collectives::all_collectives())
    expect(std::any_of(internals.available().begin(), internals.available().end(),
                       [&](const collbench::vendor_internal& v) { return v.coll == c; }),
           "MPICH offers internal algorithms for " + std::string(to_string(c)));
}

// Open MPI's signatures:
//   basic_linear (reduce to rank 0, then broadcast): rank 0 reduces 3·n elements, the others none;
//   ring: every rank reduces 3 blocks of n/4;
//   recursive_doubling: every rank reduces n twice;
//   segmented_ring: the ring in segments of 64 KiB (the segment size collbench forces with it),
//   so more op calls per rank than ring's 3 (with no segment size it would be ring itself).
// Also that the segment size does not stay behind (ring, forced after segmented_ring, still makes
// 3 calls), that a communicator created afterwards (`after`) keeps vendor's default decision, the
// same as one created before any forcing (`before`), and that plain vendor runs the algorithm that
// Open MPI 4.1's fixed decision, as ompi41.hpp transcribes it, names for each size.
void check_open_mpi(collbench::vendor_internals& internals, MPI_Op op, int n, MPI_Comm before) {
  const auto comm_of = [&](const std::string& name) {
    for (const collbench::vendor_internal& v : internals.available())
      if (v.coll == collectives::collective::allreduce && v.name == name) return internals.communicator(v);
    expect(false, "Open MPI offers no allreduce algorithm '" + name + "'");
    return MPI_COMM_NULL;
  };
  const MPI_Comm segmented = comm_of("segmented_ring"), linear = comm_of("basic_linear"),
                 ring = comm_of("ring"), rd = comm_of("recursive_doubling");
  MPI_Comm after;
  MPI_Comm_dup(MPI_COMM_WORLD, &after);
  if (segmented != MPI_COMM_NULL && linear != MPI_COMM_NULL && ring != MPI_COMM_NULL && rd != MPI_COMM_NULL) {
    const signature l = run(linear, op, n), r = run(ring, op, n), d = run(rd, op, n),
                    s = run(segmented, op, n);
    expect(l.elements == std::vector<long>{3L * n, 0, 0, 0}, "vendor:basic_linear reduces only at rank 0");
    expect(r.elements == std::vector<long>(4, 3L * n / 4) && r.calls == std::vector<long>(4, 3),
           "vendor:ring reduces 3 blocks of n/4 on every rank");
    expect(d.elements == std::vector<long>(4, 2L * n),
           "vendor:recursive_doubling reduces n twice everywhere");
    expect(
        s.elements == r.elements && std::all_of(s.calls.begin(), s.calls.end(), [](long c) { return c > 3; }),
        "vendor:segmented_ring reduces the ring's blocks in more than 3 segments per rank");
    expect(run(before, op, n) == run(after, op, n),
           "a communicator created after forcing keeps vendor's default decision");
    // The default decision is Open MPI 4.1's table as ompi41.hpp transcribes it (the simulated
    // vendor:ompi41 row): at each size, plain vendor leaves the signature of the algorithm the
    // table names (ring below 16 B, recursive doubling below 8 KiB, Rabenseifner above).
    for (const int count : {1, 2, 1023, 1024, n}) {
      const auto choice = collbench::ompi41_decision(collectives::collective::allreduce, 4,
                                                     static_cast<std::size_t>(count), sizeof(double));
      const MPI_Comm forced = comm_of(std::string(choice->open_mpi));
      if (forced != MPI_COMM_NULL)
        expect(run(before, op, count) == run(forced, op, count),
               "plain vendor runs Open MPI 4.1's choice, " + std::string(choice->open_mpi) + ", for " +
                   std::to_string(count) + " doubles");
    }
  }
  MPI_Comm_free(&after);
}

}  // namespace

int main(int argc, char** argv) {
  collbench::enable_vendor_forcing();
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Op op;
  MPI_Op_create(&counting_sum, /*commute=*/1, &op);
  const int n = 100000;
  MPI_Comm before;
  MPI_Comm_dup(MPI_COMM_WORLD, &before);
  {
    collbench::vendor_internals internals(MPI_COMM_WORLD, size);
    if (internals.available().empty() || size != 4) {
      if (rank == 0)
        std::printf("vendor_forcing_test: skipped (%s)\n",
                    size != 4 ? "needs 4 ranks" : internals.unavailable_reason().c_str());
    } else if (internals.mpich()) {
      check_mpich(internals, op, n);
    } else {
      check_open_mpi(internals, op, n, before);
    }
  }
  MPI_Comm_free(&before);
  MPI_Op_free(&op);
  if (rank == 0 && failures == 0) std::printf("vendor_forcing_test: ok\n");
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
