// SPDX-License-Identifier: BSD-3-Clause
// Proves the library's central promise with the MPI profiling interface: every algorithm except
// vendor moves data only with MPI_Send (MPI_Ssend when COLLECTIVES_SYNCHRONOUS_SENDS=1) and
// MPI_Recv. The cases come from algorithms_for(), so an algorithm added later is covered too.

#include <boost/test/data/monomorphic.hpp>
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <collectives/collectives.hpp>
#include <algorithm>
#include <ostream>
#include <string_view>
#include <vector>

#include "support/checks.hpp"
#include "support/pmpi_counters.hpp"

namespace {

using collectives::algorithm;
using collectives::collective;

struct case_t {
  collective coll;
  algorithm alg;
};

std::ostream& operator<<(std::ostream& os, const case_t& k) { return os << k.coll << '_' << k.alg; }

// vendor: the vendor variant of each collective; otherwise every other algorithm and
// automatic, which must never fall back on vendor.
std::vector<case_t> cases(bool vendor) {
  std::vector<case_t> all;
  for (collective c : collectives::all_collectives()) {
    if (!vendor) all.push_back({c, algorithm::automatic});
    for (algorithm a : collectives::algorithms_for(c))
      if ((a == algorithm::vendor) == vendor) all.push_back({c, a});
  }
  return all;
}

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int world_size() {
  int p = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  return p;
}

// One call of collective `k.coll` with algorithm `k.alg` on MPI_COMM_WORLD: blocks of n = 3p + 2
// ints (more than p and not a multiple of it, so uneven partitions are exercised), uneven blocks
// for the v-variants, and root p−1.
void run_once(const case_t& k) {
  namespace co = collectives;
  const int p = world_size(), root = p - 1;
  const std::size_t n = 3 * static_cast<std::size_t>(p) + 2, pn = n * static_cast<std::size_t>(p);
  std::vector<int> one(n, world_rank() + 1), many(pn, world_rank() + 1), out_one(n), out_many(pn);
  // The v-variants: rank r's block has r + 2 elements (uneven, none empty); rank i sends rank j
  // i + j + 1 elements in alltoallv.
  const int me = world_rank();
  std::vector<int> counts(static_cast<std::size_t>(p)), v_send_counts(counts.size()),
      v_recv_counts(counts.size());
  for (int r = 0; r < p; ++r) {
    counts[static_cast<std::size_t>(r)] = r + 2;
    v_send_counts[static_cast<std::size_t>(r)] = me + r + 1;
    v_recv_counts[static_cast<std::size_t>(r)] = r + me + 1;
  }
  const std::size_t all_blocks = static_cast<std::size_t>((p + 3) * p / 2);
  const std::size_t exchanged = static_cast<std::size_t>(p * (me + 1) + p * (p - 1) / 2);
  std::vector<int> uneven_one(static_cast<std::size_t>(me + 2), me), out_uneven_one(uneven_one.size());
  std::vector<int> uneven_all(all_blocks, me), out_uneven(me == root ? all_blocks : 0),
      uneven_all_out(all_blocks);
  std::vector<int> v_send(exchanged, me), v_recv(exchanged);
  switch (k.coll) {
    case collective::broadcast:
      co::broadcast(one, root, MPI_COMM_WORLD, k.alg);
      break;
    case collective::scatter:
      co::scatter(many, out_one, root, MPI_COMM_WORLD, k.alg);
      break;
    case collective::gather:
      co::gather(one, out_many, root, MPI_COMM_WORLD, k.alg);
      break;
    case collective::reduce:
      co::reduce(one, out_one, co::ops::sum{}, root, MPI_COMM_WORLD, k.alg);
      break;
    case collective::allgather:
      co::allgather(one, out_many, MPI_COMM_WORLD, k.alg);
      break;
    case collective::reduce_scatter:
      co::reduce_scatter(many, out_one, co::ops::sum{}, MPI_COMM_WORLD, k.alg);
      break;
    case collective::alltoall:
      co::alltoall(many, out_many, MPI_COMM_WORLD, k.alg);
      break;
    case collective::allreduce:
      co::allreduce(one, out_one, co::ops::sum{}, MPI_COMM_WORLD, k.alg);
      break;
    case collective::barrier:
      co::barrier(MPI_COMM_WORLD, k.alg);
      break;
    case collective::scan:
      co::scan(one, out_one, co::ops::sum{}, MPI_COMM_WORLD, k.alg);
      break;
    case collective::exscan:
      co::exscan(one, out_one, co::ops::sum{}, MPI_COMM_WORLD, k.alg);
      break;
    case collective::gatherv:
      co::gatherv(uneven_one, out_uneven, counts, root, MPI_COMM_WORLD, k.alg);
      break;
    case collective::scatterv:
      co::scatterv(uneven_all, counts, out_uneven_one, root, MPI_COMM_WORLD, k.alg);
      break;
    case collective::allgatherv:
      co::allgatherv(uneven_one, uneven_all_out, counts, MPI_COMM_WORLD, k.alg);
      break;
    case collective::alltoallv:
      co::alltoallv(v_send, v_send_counts, v_recv, v_recv_counts, MPI_COMM_WORLD, k.alg);
      break;
    case collective::reduce_scatterv:
      co::reduce_scatterv(uneven_all, out_uneven_one, counts, co::ops::sum{}, MPI_COMM_WORLD, k.alg);
      break;
  }
}

// The calls of the second of two identical runs: the first creates the library's private
// communicator (MPI_Comm_dup) on MPI_COMM_WORLD and any cached state, which are not the
// algorithm's traffic.
std::map<std::string_view, long> counted_run(const case_t& k) {
  run_once(k);
  pmpi_counters::reset();
  run_once(k);
  return pmpi_counters::calls();
}

long count_of(const std::map<std::string_view, long>& calls, std::string_view name) {
  const auto it = calls.find(name);
  return it == calls.end() ? 0 : it->second;
}

}  // namespace

BOOST_DATA_TEST_CASE(moves_data_only_with_send_and_recv, boost::unit_test::data::make(cases(false)), k) {
  const std::string_view send = testing::synchronous_sends() ? "MPI_Ssend" : "MPI_Send";
  const auto calls = counted_run(k);
  for (const auto& [name, n] : calls)
    BOOST_TEST((name == send || name == "MPI_Recv"), k << " called " << name << " " << n << " times (only "
                                                       << send << " and MPI_Recv are allowed)");
  // At np > 1 every rank sends or receives something: this also proves the counter counts.
  if (world_size() > 1)
    BOOST_TEST(count_of(calls, send) + count_of(calls, "MPI_Recv") > 0,
               k << " made no " << send << " or MPI_Recv call on rank " << world_rank());
}

// Positive control: the vendor variant calls the MPI library's own collective, which the
// interposition must see, or the test above would pass with a dead counter.
BOOST_DATA_TEST_CASE(vendor_calls_are_seen, boost::unit_test::data::make(cases(true)), k) {
  const auto calls = counted_run(k);
  long collective_calls = 0;
  for (const auto& [name, n] : calls)
    if (name != "MPI_Send" && name != "MPI_Ssend" && name != "MPI_Recv") collective_calls += n;
  BOOST_TEST(collective_calls > 0, k << " made no counted MPI collective call");
}


namespace {

// Whether this rank sent to `partner` before it received from it, in a recursive-doubling
// allreduce or allgather (the second of two calls) of `elements` ints per rank: 1 or 0, or −1
// when it never exchanged with it.
int sent_first_to(collective coll, std::size_t elements, int partner) {
  namespace co = collectives;
  const std::size_t p = static_cast<std::size_t>(world_size());
  std::vector<int> one(elements, 1), out(coll == collective::allgather ? p * elements : elements);
  for (int round = 0; round < 2; ++round) {
    pmpi_counters::reset();
    if (coll == collective::allgather)
      co::allgather(one, out, MPI_COMM_WORLD, algorithm::recursive_doubling);
    else
      co::allreduce(one, out, co::ops::sum{}, MPI_COMM_WORLD, algorithm::recursive_doubling);
  }
  for (const pmpi_counters::p2p_call& call : pmpi_counters::p2p_sequence())
    if (call.peer == partner) return call.name == "MPI_Recv" ? 0 : 1;
  return -1;
}

const auto doubling_cases = {collective::allreduce, collective::allgather};

}  // namespace

// Duplex-aware ordering (kit/transport.cpp): in a step whose pairs all cross the boundary
// between the lower and the upper half of the ranks (two hosts of consecutive ranks), the pairs
// must not all send first in the same direction, or one direction of a full-duplex link would
// idle while the other carried two messages. In the last step of recursive doubling
// (partner = rank xor p/2) exactly half of the pairs send first from the lower half. Messages
// above the eager size, so that every exchange is ordered.
BOOST_DATA_TEST_CASE(pairs_across_a_boundary_send_first_in_both_directions,
                     boost::unit_test::data::make(doubling_cases), coll) {
  const int p = world_size(), me = world_rank();
  if (p < 4 || (p & (p - 1)) != 0) return;  // a power of two with at least two pairs per direction
  const auto& eager = collectives::eager_limits_in_force();
  const std::size_t elements = std::max(eager.same_host, eager.other_host) / sizeof(int) + 1;
  const int partner = me ^ (p / 2);
  const int sends_first = sent_first_to(coll, elements, partner);
  BOOST_TEST(sends_first >= 0, coll << ": rank " << me << " never exchanged with rank " << partner);
  const int lower_first = me < p / 2 ? sends_first : 0;
  int lower_senders = 0;
  MPI_Allreduce(&lower_first, &lower_senders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  BOOST_TEST(lower_senders == p / 4, coll << ": " << lower_senders << " of the " << p / 2
                                          << " pairs across the halves send first from the lower half");
}

// One latency per exchange (kit/transport.cpp): where the MPI library sends a message eagerly,
// both partners send first, then receive; with E = 0 (synchronous sends, an MPI library whose
// eager size is unknown) every pair keeps one side sending and the other receiving first.
BOOST_DATA_TEST_CASE(eager_exchanges_send_first_on_both_sides, boost::unit_test::data::make(doubling_cases),
                     coll) {
  const int p = world_size(), me = world_rank();
  if (p < 2 || (p & (p - 1)) != 0) return;
  const int partner = me ^ (p / 2);
  const int sends_first = sent_first_to(coll, 1, partner);
  BOOST_TEST(sends_first >= 0, coll << ": rank " << me << " never exchanged with rank " << partner);
  int senders = 0;
  MPI_Allreduce(&sends_first, &senders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const auto& eager = collectives::eager_limits_in_force();
  // The last step of the all-gather carries p/2 ints.
  const std::size_t largest = sizeof(int) * static_cast<std::size_t>(p);
  if (eager.same_host == 0 && eager.other_host == 0)
    BOOST_TEST(senders == p / 2, coll << ": " << senders << " of " << p << " ranks sent first with E = 0");
  else if (std::min(eager.same_host, eager.other_host) >= largest)
    BOOST_TEST(senders == p, coll << ": " << senders << " of " << p << " ranks sent first with E = "
                                  << eager.same_host << " B (" << eager.source << ")");
}
