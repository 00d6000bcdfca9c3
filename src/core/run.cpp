// The compiled entry point behind every public collective: validate on this rank, before any
// message, then pick the algorithm and run it on the library's private communicator.

#include <fmt/format.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>

#include "collectives/checks.hpp"
#include "collectives/error.hpp"
#include "core/automatic.hpp"
#include "core/registry.hpp"

namespace collectives::detail {
namespace {

// Root-only buffers (scatter's send, gather's and reduce's recv) are ignored on the other ranks:
// neither checked nor passed on.
bool uses_send(const request& r, int rank) { return r.coll != collective::scatter || rank == r.root; }
bool uses_recv(const request& r, int rank) {
  return (r.coll != collective::gather && r.coll != collective::reduce) || rank == r.root;
}

bool has_root(collective c) {
  return c == collective::broadcast || c == collective::scatter || c == collective::gather ||
         c == collective::reduce;
}

// Passing the same range as send and recv means in place.
bool has_in_place_form(collective c) {
  return c == collective::allreduce || c == collective::scan || c == collective::exscan;
}

class validator {
 public:
  validator(const request& r, int rank, int size) : r_(r), rank_(rank), size_(size) {}

  [[noreturn]] void fail(std::string_view argument, std::string_view problem) const {
    throw error(fmt::format("collectives::{}: argument '{}' on rank {}: {}", to_string(r_.coll), argument,
                            rank_, problem));
  }

  void expect_count(std::string_view argument, std::size_t given, std::size_t expected,
                    std::string_view why) const {
    if (given != expected)
      fail(argument, fmt::format("expected {} elements ({}), given {}", expected, why, given));
  }

  /// n, the per-rank block (or whole vector) of this call, after checking every buffer size.
  std::size_t check_sizes() const {
    const std::size_t p = static_cast<std::size_t>(size_);
    const bool at_root = rank_ == r_.root;
    switch (r_.coll) {
      case collective::broadcast:
        return r_.recv_count;
      case collective::scatter:
        if (at_root)
          expect_count("send", r_.send_count, p * r_.recv_count, "p blocks of recv's size at the root");
        return r_.recv_count;
      case collective::gather:
        if (at_root)
          expect_count("recv", r_.recv_count, p * r_.send_count, "p blocks of send's size at the root");
        return r_.send_count;
      case collective::reduce:
        if (at_root) expect_count("recv", r_.recv_count, r_.send_count, "the size of send, at the root");
        return r_.send_count;
      case collective::allgather:
        expect_count("recv", r_.recv_count, p * r_.send_count, "p blocks of send's size");
        return r_.send_count;
      case collective::reduce_scatter:
        expect_count("send", r_.send_count, p * r_.recv_count, "p blocks of recv's size");
        return r_.recv_count;
      case collective::alltoall:
        if (r_.send_count % p != 0)
          fail("send", fmt::format("expected p = {} equal blocks, given {} elements", p, r_.send_count));
        expect_count("recv", r_.recv_count, r_.send_count, "the size of send");
        return r_.send_count / p;
      case collective::allreduce:
      case collective::scan:
      case collective::exscan:
        expect_count("recv", r_.recv_count, r_.send_count, "the size of send");
        return r_.send_count;
      case collective::barrier:
        return 0;
    }
    return 0;
  }

  void check_no_overlap() const {
    const auto* s = static_cast<const std::byte*>(r_.send);
    const auto* d = static_cast<const std::byte*>(r_.recv);
    const std::size_t sb = r_.send_count * r_.elem.size, db = r_.recv_count * r_.elem.size;
    if (r_.coll == collective::broadcast || sb == 0 || db == 0) return;
    if (!uses_send(r_, rank_) || !uses_recv(r_, rank_)) return;
    if (has_in_place_form(r_.coll) && s == d) return;  // in place
    const std::less<const std::byte*> before;
    if (before(s, d + db) && before(d, s + sb))
      fail("recv", has_in_place_form(r_.coll)
                       ? "overlaps send without being the same range (pass the same range twice for in place)"
                       : "overlaps send; this collective has no in-place form");
  }

  const request& r_;
  int rank_;
  int size_;
};

// Every rank checks its own arguments; returns n (see call::count) or throws.
std::size_t validate(const request& r, int rank, int size) {
  const validator v(r, rank, size);
  if (!supports(r.coll, r.alg)) {
    std::string known;
    for (algorithm a : algorithms_for(r.coll))
      known += fmt::format("{}{}", known.empty() ? "" : ", ", to_string(a));
    v.fail("alg", fmt::format("{} has no algorithm '{}'; it has automatic, {}", to_string(r.coll),
                              to_string(r.alg), known));
  }
  if (has_root(r.coll) && (r.root < 0 || r.root >= size))
    v.fail("root", fmt::format("expected a rank in [0, {}), given {}", size, r.root));
  if (r.op != nullptr && !r.op->commutative && !keeps_rank_order(r.coll, r.alg))
    v.fail("op",
           fmt::format("the op is not commutative (declare `static constexpr bool commutative = true` if it "
                       "is), and '{}' cannot keep rank order; use naive, automatic or an order-keeping "
                       "algorithm",
                       to_string(r.alg)));
  const std::size_t count = v.check_sizes();
  v.check_no_overlap();
  if (r.alg == algorithm::vendor && count > static_cast<std::size_t>(INT_MAX))
    v.fail("alg",
           fmt::format("vendor takes at most INT_MAX elements per block (MPI's int count), given {}", count));
  return count;
}

// argument_checks::collective: one small all-reduce before any data moves, so that a problem
// seen by one rank, or a disagreement between ranks, makes every rank throw.
void agree_on_arguments(const transport& net, const request& r, const std::optional<std::size_t>& count,
                        const std::string& local_problem) {
  const long long n = count ? static_cast<long long>(*count) : -1;
  const long long root = r.root, alg = static_cast<long long>(r.alg);
  const auto elem = static_cast<long long>(r.elem.size);
  // Maxima of x and of −x give the range of x over the ranks.
  long long agreed[] = {local_problem.empty() ? -1 : net.rank(), n, -n, root, -root, alg, -alg, elem, -elem};
  net.agree_on_maximum(agreed, 9);
  const auto disagree = [&](int at) { return agreed[at] != -agreed[at + 1]; };
  const std::string_view name = to_string(r.coll);
  if (!local_problem.empty()) throw error(local_problem);
  if (agreed[0] >= 0)
    throw error(
        fmt::format("collectives::{}: rank {} rejected its arguments (see its error); no data was sent", name,
                    agreed[0]));
  if (disagree(1))
    throw error(
        fmt::format("collectives::{}: the ranks disagree on the element count n: from {} to {} across "
                    "{} ranks",
                    name, -agreed[2], agreed[1], net.size()));
  if (has_root(r.coll) && disagree(3))
    throw error(fmt::format("collectives::{}: the ranks disagree on the root: from {} to {}", name,
                            -agreed[4], agreed[3]));
  if (disagree(5)) throw error(fmt::format("collectives::{}: the ranks disagree on the algorithm", name));
  if (disagree(7))
    throw error(fmt::format("collectives::{}: the ranks disagree on the element size: from {} to {} bytes",
                            name, -agreed[8], agreed[7]));
}

argument_checks initial_argument_checks() {
  const char* v = std::getenv("COLLECTIVES_ARGUMENT_CHECKS");
  return v != nullptr && std::string_view(v) == "collective" ? argument_checks::collective
                                                             : argument_checks::local;
}

std::atomic<argument_checks> checks_level{initial_argument_checks()};

}  // namespace

void run(const request& r) {
  if (r.comm == MPI_COMM_NULL)
    throw error(fmt::format("collectives::{}: argument 'comm': MPI_COMM_NULL is not a communicator",
                            to_string(r.coll)));
  int rank = 0, size = 0, inter = 0;
  check_mpi(MPI_Comm_rank(r.comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(r.comm, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_test_inter(r.comm, &inter), "MPI_Comm_test_inter");
  if (inter)
    throw error(
        fmt::format("collectives::{}: argument 'comm' on rank {}: an intercommunicator; the library "
                    "runs on intracommunicators only",
                    to_string(r.coll), rank));

  std::optional<std::size_t> count;
  std::string local_problem;
  if (checks_level.load() == argument_checks::local) {
    count = validate(r, rank, size);
  } else {
    try {
      count = validate(r, rank, size);
    } catch (const std::exception& e) {
      local_problem = e.what();
    }
  }
  const transport net(r.comm);
  if (checks_level.load() == argument_checks::collective) agree_on_arguments(net, r, count, local_problem);

  const algorithm alg =
      r.alg == algorithm::automatic
          ? choose_automatic(r.coll, size, *count * r.elem.size, *count, r.op == nullptr || r.op->commutative)
          : r.alg;
  const call c{net,
               uses_send(r, rank) ? static_cast<const std::byte*>(r.send) : nullptr,
               uses_recv(r, rank) ? static_cast<std::byte*>(r.recv) : nullptr,
               *count,
               r.elem,
               r.op,
               has_root(r.coll) ? r.root : 0};
  find_algorithm(r.coll, alg)->run(c);
}

}  // namespace collectives::detail

namespace collectives {

void set_argument_checks(argument_checks level) { detail::checks_level.store(level); }
argument_checks get_argument_checks() { return detail::checks_level.load(); }

}  // namespace collectives
