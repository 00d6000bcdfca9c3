// SPDX-License-Identifier: BSD-3-Clause
// Trace mode (include/collectives/trace.hpp): a trace is valid JSON in Chrome's trace-event form,
// holds the schedule the algorithm documents (ring all-reduce: 2(p−1) sends and receives and p−1
// reductions per rank, each naming its block; Rabenseifner's all-reduce: neighbours first), every
// send is matched by one receive of the same size on the peer, times never decrease along a rank's
// file, and tracing changes no result.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unistd.h>

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;
using json = nlohmann::json;

std::vector<json> events_of(const json& doc, const std::string& cat, const std::string& ph = "X") {
  std::vector<json> out;
  for (const json& e : doc.at("traceEvents"))
    if (e.value("cat", "") == cat && e.value("ph", "") == ph) out.push_back(e);
  return out;
}

// Every rank's trace, on every rank.
std::vector<json> everyone(MPI_Comm comm, const std::string& mine) {
  const int p = size_of(comm);
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(p)), displs(static_cast<std::size_t>(p));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < p; ++r) displs[r] = total, total += lengths[r];
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, comm);
  std::vector<json> docs;
  for (int r = 0; r < p; ++r) docs.push_back(json::parse(all.substr(displs[r], lengths[r])));
  return docs;
}

void check_times_never_decrease(const json& doc) {
  double last = -1;
  for (const json& e : doc.at("traceEvents")) {
    if (!e.contains("ts")) continue;
    const double ts = e.at("ts").get<double>();
    BOOST_CHECK_MESSAGE(ts >= last, fmt::format("ts {} after {} in {}", ts, last, e.dump()));
    last = ts;
  }
}

// Each send (source, destination, sequence number) meets exactly one receive of the same size.
void check_sends_match_receives(const std::vector<json>& docs, const std::string& what) {
  std::map<std::tuple<int, int, long long>, std::size_t> sent, received;
  for (const json& doc : docs) {
    for (const json& s : events_of(doc, "send"))
      sent[{s.at("pid").get<int>(), s.at("args").at("peer").get<int>(),
            s.at("args").at("seq").get<long long>()}] = s.at("args").at("bytes").get<std::size_t>();
    for (const json& r : events_of(doc, "recv"))
      received[{r.at("args").at("peer").get<int>(), r.at("pid").get<int>(),
                r.at("args").at("seq").get<long long>()}] = r.at("args").at("bytes").get<std::size_t>();
  }
  BOOST_CHECK_MESSAGE(sent == received,
                      fmt::format("{}: {} sends, {} receives, not matched one to one with the "
                                  "same sizes",
                                  what, sent.size(), received.size()));
}

}  // namespace

BOOST_AUTO_TEST_CASE(ring_allreduce_schedule) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  const std::size_t n = 4 * static_cast<std::size_t>(p);
  std::vector<long> in(n), out(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<long>(rank * 1000 + i);
  trace_to_memory();
  BOOST_TEST(tracing());
  allreduce(in, out, ops::sum{}, comm, algorithm::ring);
  const std::string text = trace_take();
  trace_off();
  BOOST_TEST(!tracing());
  for (std::size_t i = 0; i < n; ++i)
    BOOST_TEST(out[i] == static_cast<long>(1000 * p * (p - 1) / 2 + p * static_cast<long>(i)));

  const json doc = json::parse(text);
  const std::vector<json> calls = events_of(doc, "call");
  BOOST_TEST_REQUIRE(calls.size() == 1u);
  const json& args = calls[0].at("args");
  BOOST_TEST(args.at("collective") == "allreduce");
  BOOST_TEST(args.at("algorithm") == "ring");
  BOOST_TEST(args.at("count").get<std::size_t>() == n);
  BOOST_TEST(args.at("elem_size").get<std::size_t>() == sizeof(long));
  BOOST_TEST(args.at("comm_rank").get<int>() == rank);
  BOOST_TEST(args.at("comm_size").get<int>() == p);

  const std::size_t steps = 2 * static_cast<std::size_t>(p - 1);
  const std::vector<json> sends = events_of(doc, "send"), recvs = events_of(doc, "recv");
  BOOST_TEST(sends.size() == steps);
  BOOST_TEST(recvs.size() == steps);
  BOOST_TEST(events_of(doc, "reduce").size() == static_cast<std::size_t>(p - 1));
  BOOST_TEST(events_of(doc, "message", "s").size() == steps);
  BOOST_TEST(events_of(doc, "message", "f").size() == steps);
  for (const json& s : sends) {
    // Step s of the reduce-scatter sends block (rank − s − 1) mod p to the right neighbour.
    BOOST_TEST(s.at("args").at("peer").get<int>() == (rank + 1) % p);
    BOOST_TEST(s.at("args").at("bytes").get<std::size_t>() == 4 * sizeof(long));
    BOOST_TEST(s.at("args").at("parts").get<int>() == p);
  }
  if (p > 1) BOOST_TEST(sends[0].at("args").at("blocks")[0].get<int>() == (rank - 1 + p) % p);
  check_times_never_decrease(doc);
  check_sends_match_receives(everyone(comm, text), "allreduce ring");
}

// Rabenseifner's all-reduce halves at distance 1 first, so hosts of consecutive ranks keep its
// half-vector steps, and gathers back from the farthest distance: member g of the power-of-two
// group sends runs of p′/2, p′/4, …, 1 parts to g XOR 1, 2, …, p′/2, ends the halving with part
// bit_reversed(g), and sends runs of 1, 2, …, p′/2 parts to g XOR p′/2, …, 2, 1. The folded-out
// ranks (p not a power of two) send their vector to their partner in halves, the partner the result back.
BOOST_AUTO_TEST_CASE(rabenseifner_allreduce_halves_neighbours_first) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  if (p == 1) return;
  const int pof2 = static_cast<int>(std::bit_floor(static_cast<unsigned>(p))), rem = p - pof2;
  const std::size_t per_part = 3, n = per_part * static_cast<std::size_t>(pof2);
  std::vector<long> in(n), out(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<long>(rank * 1000 + i);
  trace_to_memory();
  allreduce(in, out, ops::sum{}, comm, algorithm::rabenseifner);
  const json doc = json::parse(trace_take());
  trace_off();
  for (std::size_t i = 0; i < n; ++i)
    BOOST_TEST(out[i] == static_cast<long>(1000 * p * (p - 1) / 2 + p * static_cast<long>(i)));

  // Each send as (peer, parts carried, first part; −1 when not marked).
  std::vector<std::tuple<int, int, int>> sent, expected;
  for (const json& s : events_of(doc, "send")) {
    const json& a = s.at("args");
    sent.emplace_back(a.at("peer").get<int>(),
                      static_cast<int>(a.at("bytes").get<std::size_t>() / (per_part * sizeof(long))),
                      a.contains("blocks") ? a.at("blocks")[0].get<int>() : -1);
  }
  const auto rank_of_member = [&](int g) { return g < rem ? 2 * g + 1 : g + rem; };
  if (rank < 2 * rem && rank % 2 == 0) {
    expected = {{rank + 1, pof2 / 2, 0}, {rank + 1, pof2 / 2, pof2 / 2}};
  } else {
    const int g = rank < 2 * rem ? rank / 2 : rank - rem;
    int own = 0;
    for (int bit = 1; bit < pof2; bit *= 2) own = 2 * own + ((g & bit) != 0 ? 1 : 0);
    for (int d = 1; d < pof2; d *= 2) {
      const int run = pof2 / (2 * d);
      expected.emplace_back(rank_of_member(g ^ d), run, (own ^ run) & -run);
    }
    for (int d = pof2 / 2; d >= 1; d /= 2) {
      const int run = pof2 / (2 * d);
      expected.emplace_back(rank_of_member(g ^ d), run, own & -run);
    }
    if (rank < 2 * rem) expected.emplace_back(rank - 1, pof2, -1);
  }
  BOOST_CHECK_MESSAGE(
      sent == expected,
      fmt::format("rank {} of {}: sends (peer, parts, first part) {}, expected {}", rank, p, sent, expected));
}

BOOST_AUTO_TEST_CASE(automatic_is_recorded_as_what_ran) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  std::vector<double> v(3, 1.0);
  trace_to_memory();
  allreduce(v, v, ops::sum{}, comm);
  const json doc = json::parse(trace_take());
  trace_off();
  const std::vector<json> calls = events_of(doc, "call");
  BOOST_TEST_REQUIRE(calls.size() == 1u);
  BOOST_TEST(calls[0].at("args").at("requested") == "automatic");
  const auto ran = parse_algorithm(calls[0].at("args").at("algorithm").get<std::string>());
  BOOST_TEST_REQUIRE(ran.has_value());
  BOOST_TEST((*ran != algorithm::automatic && supports(collective::allreduce, *ran)));
}

// Every algorithm of these collectives, one call each in one trace: matched sends and receives,
// non-decreasing times, one call slice per call; and the same result with and without tracing.
BOOST_AUTO_TEST_CASE(every_algorithm_traced_and_unchanged) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  const std::size_t n = 3 * static_cast<std::size_t>(p) + 1;
  std::size_t calls = 0;
  const auto run_all = [&] {
    std::vector<std::vector<float>> results;
    for (collective c : {collective::allreduce, collective::broadcast, collective::alltoall,
                         collective::reduce_scatter, collective::allgather, collective::scan}) {
      for (algorithm a : algorithms_for(c)) {
        if (a == algorithm::vendor) continue;
        std::vector<float> in(c == collective::alltoall || c == collective::reduce_scatter ? n * p : n);
        for (std::size_t i = 0; i < in.size(); ++i) in[i] = 0.1f * static_cast<float>(rank + 1) + 0.37f * i;
        std::vector<float> out(c == collective::allgather        ? n * p
                               : c == collective::reduce_scatter ? n
                                                                 : in.size());
        switch (c) {
          case collective::allreduce:
            allreduce(in, out, ops::sum{}, comm, a);
            break;
          case collective::broadcast:
            broadcast(in, 0, comm, a);
            out = in;
            break;
          case collective::alltoall:
            alltoall(in, out, comm, a);
            break;
          case collective::reduce_scatter:
            reduce_scatter(in, out, ops::sum{}, comm, a);
            break;
          case collective::allgather:
            allgather(in, out, comm, a);
            break;
          case collective::scan:
            scan(in, out, ops::sum{}, comm, a);
            break;
          case collective::scatter:
          case collective::gather:
          case collective::reduce:
          case collective::barrier:
          case collective::exscan:
          case collective::gatherv:
          case collective::scatterv:
          case collective::allgatherv:
          case collective::alltoallv:
          case collective::reduce_scatterv:
            BOOST_FAIL("not in the list: " << to_string(c));
        }
        results.push_back(out);
        ++calls;
      }
    }
    return results;
  };
  const auto untraced = run_all();
  calls = 0;
  trace_to_memory();
  const auto traced = run_all();
  const std::size_t traced_calls = calls;
  const std::string text = trace_take();
  trace_off();
  const auto untraced_again = run_all();
  BOOST_TEST((traced == untraced));
  BOOST_TEST((untraced_again == untraced));
  const std::vector<json> docs = everyone(comm, text);
  BOOST_TEST(events_of(docs[rank], "call").size() == traced_calls);
  check_times_never_decrease(docs[rank]);
  check_sends_match_receives(docs, "every algorithm");
}

// trace_to writes <prefix>.<world rank>.json, a complete document, when tracing stops.
BOOST_AUTO_TEST_CASE(files_per_rank) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  // A directory of this run's own: the same test runs at once with standard and synchronous
  // sends (scripts/test.sh), and the first to finish removes its directory.
  int run_id = rank == 0 ? static_cast<int>(getpid()) : 0;
  MPI_Bcast(&run_id, 1, MPI_INT, 0, comm);
  const std::filesystem::path dir = fmt::format("trace_test_files.{}ranks.{}", p, run_id);
  if (rank == 0) std::filesystem::create_directories(dir);
  MPI_Barrier(comm);
  trace_to((dir / "t").string());
  std::vector<int> v(5, rank);
  broadcast(v, 0, comm, algorithm::binomial);
  barrier(comm);
  trace_off();
  MPI_Barrier(comm);
  if (rank == 0) {
    for (int r = 0; r < p; ++r) {
      std::ifstream is(dir / fmt::format("t.{}.json", r));
      BOOST_TEST_REQUIRE(is.good());
      const json doc = json::parse(is);
      BOOST_TEST(events_of(doc, "call").size() == 2u);
      check_times_never_decrease(doc);
    }
    std::filesystem::remove_all(dir);
  }
}

// Run with COLLECTIVES_TRACE=<prefix> by tests/trace/trace_files.sh: tracing starts from the
// environment and the files are written at MPI_Finalize. Without it, nothing to do.
BOOST_AUTO_TEST_CASE(traced_from_the_environment) {
  if (std::getenv("COLLECTIVES_TRACE") == nullptr) return;
  BOOST_TEST(tracing());
  const MPI_Comm comm = MPI_COMM_WORLD;
  const std::size_t n = 4 * static_cast<std::size_t>(size_of(comm));
  std::vector<int> in(n, 1), out(n);
  allreduce(in, out, ops::sum{}, comm, algorithm::ring);
}
