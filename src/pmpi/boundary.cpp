// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/boundary.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdio>
#include <cstdlib>

#include "dispatch/registry.hpp"
#include "pmpi/memory.hpp"
#include "pmpi/settings.hpp"

namespace collectives::pmpi {

constinit thread_local int library_depth = 0;
constinit std::array<std::atomic<bool>, functions.size()> straight_to_mpi{};
constinit std::atomic<std::uint64_t> comms_freed{0};
constinit thread_local std::array<memory, functions.size()> memories{};
thread_local std::array<std::vector<int>, functions.size()> forwarded_counts;

selection radix_within(collective c, selection a, int p) {
  if (p < 2) return {a.alg};
  const detail::algorithm_descriptor* d = detail::find_algorithm(c, a.alg);
  const bool power_of_two = d != nullptr && d->radix_power_of_two;
  return {a.alg, power_of_two ? static_cast<int>(std::bit_floor(static_cast<unsigned>(p))) : p};
}

// A selection that MPI_Init did not see (a program whose MPI_Init bypassed ours) still stops
// the job on its first collective rather than running with a selection the user did not mean.
const plan& make_plan() {
  static const plan p = [] {
    const settings& s = current_settings();
    int world = 0;
    detail::check_mpi(PMPI_Comm_size(MPI_COMM_WORLD, &world), "MPI_Comm_size");
    const std::string problem = s.problem.empty() ? radix_above_world(s, world) : s.problem;
    if (!problem.empty()) {
      std::fprintf(stderr, "%s\n", problem.c_str());
      std::fflush(stderr);
      PMPI_Abort(MPI_COMM_WORLD, 1);
    }
    plan made;
    for (std::size_t c = 0; c < collective_count; ++c) {
      made.chosen[c] = s.for_collective(static_cast<collective>(c));
      made.fastest[c] = s.is_fastest(static_cast<collective>(c));
    }
    made.report = s.report_to.has_value();
    for (const function_info& f : functions)
      straight_to_mpi[static_cast<std::size_t>(f.id)].store(
          !made.report && made.chosen[static_cast<std::size_t>(f.coll)].alg == algorithm::vendor,
          std::memory_order_relaxed);
    return made;
  }();
  return p;
}

void arguments::query() {
  if (comm == MPI_COMM_NULL)
    throw mpi_failure{MPI_ERR_COMM, fmt::format("{}: comm is MPI_COMM_NULL", info(f).name)};
  int is_inter = 0;
  detail::check_mpi(PMPI_Comm_test_inter(comm, &is_inter), "MPI_Comm_test_inter");
  inter = is_inter != 0;
  if (inter) return;  // forwarded at once: neither rank nor size is needed
  detail::check_mpi(PMPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::check_mpi(PMPI_Comm_size(comm, &size), "MPI_Comm_size");
}

const layout& arguments::ask(MPI_Datatype type) const {
  if (asked_count_ == asked_.size())
    throw mpi_failure{MPI_ERR_INTERN, fmt::format("{}: more than two derived datatypes", info(f).name)};
  return asked_[asked_count_++] = ask_mpi(type);
}

void arguments::fail(int error_class, std::string_view problem) const {
  throw mpi_failure{error_class, fmt::format("{} on rank {}: {}", info(f).name, rank, problem)};
}

void arguments::bad_count(std::string_view name, int c) const {
  fail(MPI_ERR_COUNT, fmt::format("{} = {} is negative", name, c));
}

void arguments::bad_type(std::string_view name) const {
  fail(MPI_ERR_TYPE, fmt::format("{} is MPI_DATATYPE_NULL", name));
}

void arguments::bad_root(int r) const {
  fail(MPI_ERR_ROOT, fmt::format("root = {} is not a rank in [0, {})", r, size));
}

void arguments::bad_in_place(std::string_view name) const {
  fail(MPI_ERR_BUFFER, fmt::format("{} is MPI_IN_PLACE, which {} does not allow here", name, info(f).name));
}

void arguments::bad_buffer(std::string_view name, int c) const {
  fail(MPI_ERR_BUFFER, fmt::format("{} is NULL but holds {} elements", name, c));
}

void arguments::bad_bytes(std::size_t send_bytes, std::size_t recv_bytes) const {
  fail(MPI_ERR_TRUNCATE, fmt::format("a block sends {} bytes but receives {} (the type signatures differ)",
                                     send_bytes, recv_bytes));
}

int raise(MPI_Comm comm, int error_class, const std::string& message) {
  // An error without a usable communicator goes to MPI_COMM_WORLD's handler, as Open MPI does.
  const MPI_Comm target = comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm;
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(target, &handler);
  // The predefined handlers print only the class's generic text: say what was wrong first,
  // unless the application asked for codes back.
  if (handler != MPI_ERRORS_RETURN) {
    std::fprintf(stderr, "collectives_mpi: %s\n", message.c_str());
    std::fflush(stderr);
  }
  if (handler != MPI_ERRHANDLER_NULL) MPI_Errhandler_free(&handler);
  MPI_Comm_call_errhandler(target, error_class);
  return error_class;
}

int raise_out_of_memory(mpi_function f, MPI_Comm comm) {
  return raise(comm, MPI_ERR_NO_MEM, std::string(info(f).name) + ": out of memory");
}

}  // namespace collectives::pmpi
