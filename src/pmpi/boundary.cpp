#include "pmpi/boundary.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

#include "core/automatic.hpp"
#include "core/transport.hpp"
#include "pmpi/settings.hpp"

namespace collectives::pmpi {
namespace {

thread_local int library_depth = 0;

struct library_scope {
  library_scope() { ++library_depth; }
  ~library_scope() { --library_depth; }
  library_scope(const library_scope&) = delete;
  library_scope& operator=(const library_scope&) = delete;
};

// A selection that MPI_Init did not see (a program whose MPI_Init bypassed ours) still stops
// the job on its first collective rather than running with a selection the user did not mean.
const settings& valid_settings() {
  const settings& s = current_settings();
  if (!s.problem.empty()) {
    std::fprintf(stderr, "%s\n", s.problem.c_str());
    std::fflush(stderr);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return s;
}

}  // namespace

bool inside_library() { return library_depth > 0; }

arguments::arguments(mpi_function fn, MPI_Comm c) : f(fn), comm(c) {
  if (comm == MPI_COMM_NULL)
    throw mpi_failure{MPI_ERR_COMM, fmt::format("{}: comm is MPI_COMM_NULL", info(f).name)};
  int is_inter = 0;
  detail::check_mpi(MPI_Comm_test_inter(comm, &is_inter), "MPI_Comm_test_inter");
  inter = is_inter != 0;
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::check_mpi(inter ? MPI_Comm_remote_size(comm, &size) : MPI_Comm_size(comm, &size), "MPI_Comm_size");
}

void arguments::fail(int error_class, std::string_view problem) const {
  throw mpi_failure{error_class, fmt::format("{} on rank {}: {}", info(f).name, rank, problem)};
}

void arguments::count(std::string_view name, int c) const {
  if (c < 0) fail(MPI_ERR_COUNT, fmt::format("{} = {} is negative", name, c));
}

void arguments::type(std::string_view name, MPI_Datatype t) const {
  if (t == MPI_DATATYPE_NULL) fail(MPI_ERR_TYPE, fmt::format("{} is MPI_DATATYPE_NULL", name));
}

void arguments::root(int r) const {
  if (r < 0 || r >= size) fail(MPI_ERR_ROOT, fmt::format("root = {} is not a rank in [0, {})", r, size));
}

void arguments::op(MPI_Op o) const {
  if (o == MPI_OP_NULL) fail(MPI_ERR_OP, "op is MPI_OP_NULL");
}

void arguments::not_in_place(std::string_view name, const void* buf) const {
  if (buf == MPI_IN_PLACE)
    fail(MPI_ERR_BUFFER, fmt::format("{} is MPI_IN_PLACE, which {} does not allow here", name, info(f).name));
}

void arguments::buffer(std::string_view name, const void* buf, int c, const layout& l) const {
  if (buf == nullptr && c > 0 && l.size > 0 && l.true_lb == 0)
    fail(MPI_ERR_BUFFER, fmt::format("{} is NULL but holds {} elements", name, c));
}

void arguments::same_bytes(std::size_t send_bytes, std::size_t recv_bytes) const {
  if (send_bytes != recv_bytes)
    fail(MPI_ERR_TRUNCATE, fmt::format("a block sends {} bytes but receives {} (the type signatures differ)",
                                       send_bytes, recv_bytes));
}

algorithm choose(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                 std::size_t largest_block) {
  const algorithm a = valid_settings().for_collective(c);
  if (a == algorithm::automatic || (!commutative && !keeps_rank_order(c, a)))
    return detail::choose_automatic(c, p, bytes, count, commutative, largest_block);
  return a;
}

std::optional<forward_reason> to_vendor(collective c, int p, std::size_t bytes, std::size_t largest_block) {
  const settings& s = valid_settings();
  if (s.for_collective(c) == algorithm::vendor) return forward_reason::vendor_chosen;
  if (s.is_fastest(c) && detail::vendor_fastest(c, p, bytes, largest_block))
    return forward_reason::vendor_fastest;
  return std::nullopt;
}

void run_library(const detail::request& r) {
  const library_scope scope;
  detail::run(r);
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

}  // namespace collectives::pmpi
