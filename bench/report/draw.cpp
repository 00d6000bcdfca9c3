// SPDX-License-Identifier: BSD-3-Clause
#include "report/draw.hpp"

#include <fmt/format.h>

#include <collectives/collectives.hpp>
#include <cstring>
#include <filesystem>
#include <vector>

#include "measure/metrics.hpp"
#include "report/trace_view.hpp"
#include "measure/workload.hpp"

namespace collbench {
namespace {

using collectives::algorithm;
using collectives::collective;

struct drawing {
  collective coll;
  algorithm alg;
};

// "all" or "collective:algorithm" entries → the calls to draw; an empty message means fine.
std::string parse_entries(const std::vector<std::string>& entries, std::vector<drawing>& out) {
  for (const std::string& entry : entries) {
    if (entry == "all") {
      for (collective c : collectives::all_collectives())
        for (algorithm a : collectives::algorithms_for(c))
          if (a != algorithm::vendor) out.push_back({c, a});
      continue;
    }
    const std::size_t colon = entry.find(':');
    const auto c = collectives::parse_collective(entry.substr(0, colon));
    if (colon == std::string::npos || !c)
      return fmt::format("--draw: '{}' is not collective:algorithm (e.g. allreduce:ring) or all", entry);
    const auto a = collectives::parse_algorithm(entry.substr(colon + 1));
    if (!a || *a == algorithm::vendor || !collectives::supports(*c, *a))
      return fmt::format("--draw: {} has no library algorithm '{}'", to_string(*c), entry.substr(colon + 1));
    out.push_back({*c, *a});
  }
  return {};
}

// Rank 0 receives every rank's text.
std::vector<std::string> gather_text(MPI_Comm comm, const std::string& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size)), displs(static_cast<std::size_t>(size));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  std::string all;
  if (rank == 0) {
    int at = 0;
    for (int r = 0; r < size; ++r) displs[r] = at, at += lengths[r];
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  if (rank == 0)
    for (int r = 0; r < size; ++r) out.push_back(all.substr(displs[r], lengths[r]));
  return out;
}

}  // namespace

int draw_algorithms(MPI_Comm comm, const options& o) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<drawing> todo;
  if (const std::string problem = parse_entries(o.draw, todo); !problem.empty()) {
    if (rank == 0) fmt::print(stderr, "collbench: {}\n", problem);
    return 2;
  }
  if (rank == 0) std::filesystem::create_directories(o.draw_dir);
  int status = 0;
  for (const drawing& d : todo) {
    const std::size_t elem = size_of(o.type);
    const std::optional<message> m = shape(d.coll, 4 * elem * static_cast<std::size_t>(size), elem, size);
    const std::unique_ptr<workload> w = make_workload(d.coll, o.type, o.op, o.root, comm, o.skew);
    w->resize(m ? m->call_count : 0);
    // Vendor's result is the reference; one untraced call warms the connections up, one traced
    // call measures the clock offsets, and the next one is drawn.
    const variant vendor{"vendor", algorithm::vendor};
    const variant mine{std::string(to_string(d.alg)), d.alg};
    w->fill({});
    w->run(vendor);
    const std::span<const std::byte> got = w->result();
    const std::vector<std::byte> reference(got.begin(), got.end());
    w->fill(reference);
    w->run(mine);
    collectives::trace_to_memory();
    w->fill(reference);
    w->run(mine);
    collectives::trace_take();
    w->fill(reference);
    MPI_Barrier(comm);
    w->run(mine);
    const std::string trace = collectives::trace_take();
    collectives::trace_off();
    const std::span<const std::byte> result = w->result();
    int wrong = result.size() != reference.size() ||
                (!result.empty() && std::memcmp(result.data(), reference.data(), result.size()) != 0);
    MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_MAX, comm);
    const std::vector<std::string> traces = gather_text(comm, trace);
    if (rank != 0) continue;
    const std::string name = fmt::format("{}_{}_p{}", to_string(d.coll), to_string(d.alg), size);
    if (wrong) {
      fmt::print(stderr, "collbench: --draw {}: the result differs from vendor's\n", name);
      status = 1;
    }
    std::vector<nlohmann::json> docs;
    for (const std::string& t : traces) docs.push_back(nlohmann::json::parse(t));
    std::vector<std::string> warnings;
    const nlohmann::json merged = merge_traces(docs, warnings);
    for (const std::string& warning : warnings)
      fmt::print(stderr, "collbench: --draw {}: {}\n", name, warning);
    const std::string png = (std::filesystem::path(o.draw_dir) / (name + ".png")).string();
    if (const std::string problem =
            draw_call(merged, png, o.draw_logical ? time_axis::logical : time_axis::real);
        !problem.empty()) {
      fmt::print(stderr, "collbench: --draw {}: {}\n", name, problem);
      status = 1;
    } else if (!o.quiet) {
      fmt::print("{}\n", png);
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, comm);
  return status;
}

}  // namespace collbench
