#pragma once

// The C boundary: argument checks that become MPI error classes, the guard that sends the
// library's own MPI calls straight to the MPI library, and the serve/forward bookkeeping.

#include <mpi.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "collectives/detail/request.hpp"
#include "pmpi/datatypes.hpp"
#include "pmpi/functions.hpp"
#include "pmpi/report.hpp"

namespace collectives::pmpi {

/// A bad argument: becomes `error_class` through the communicator's error handler.
struct mpi_failure {
  int error_class;
  std::string message;
};

/// True while this thread runs the library's code for a drop-in call: an MPI collective called
/// from there (the library's MPI_Allreduce for collective argument checks, the vendor variant,
/// anything the MPI library calls back) is forwarded unchanged and uncounted, never served again.
bool inside_library();

/// Checks one call's arguments on this rank, before any message, throwing mpi_failure.
class arguments {
 public:
  /// Throws MPI_ERR_COMM for MPI_COMM_NULL; learns rank, size and whether comm is an intercommunicator.
  arguments(mpi_function f, MPI_Comm comm);

  [[noreturn]] void fail(int error_class, std::string_view problem) const;
  void count(std::string_view name, int count) const;
  void type(std::string_view name, MPI_Datatype type) const;
  void root(int root) const;
  void op(MPI_Op op) const;
  void not_in_place(std::string_view name, const void* buf) const;
  /// A null buffer holding data (MPI_BOTTOM with a type of absolute addresses is fine).
  void buffer(std::string_view name, const void* buf, int count, const layout& l) const;
  /// Send and receive sides must carry the same bytes per block.
  void same_bytes(std::size_t send_bytes, std::size_t recv_bytes) const;

  mpi_function f;
  MPI_Comm comm;
  int rank = 0;
  int size = 0;
  bool inter = false;
};

/// The algorithm serving collective `c`: the selection, or automatic's choice when it is
/// automatic or cannot keep the rank order a non-commutative op needs. The v-variants pass
/// what every rank knows alike, as detail::choose_automatic takes it (0 where nothing is).
algorithm choose(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                 std::size_t largest_block = 0);

/// Why this call of collective `c` goes to the MPI library: COLLECTIVES_ALGORITHMS selected
/// `vendor`, or `fastest` and the decision table measured vendor clearly faster for it (the
/// arguments as choose takes them, so every rank decides alike); std::nullopt when the library
/// serves it.
std::optional<forward_reason> to_vendor(collective c, int p, std::size_t bytes,
                                        std::size_t largest_block = 0);

/// Runs the library on `r` (its algorithm already chosen) with the guard set.
void run_library(const detail::request& r);

/// Times one entry point, converts failures into MPI error classes, and records the outcome.
template <class Body>
int at_boundary(mpi_function f, MPI_Comm comm, Body&& body);

int raise(MPI_Comm comm, int error_class, const std::string& message);

template <class Body>
int at_boundary(mpi_function f, MPI_Comm comm, Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  try {
    const outcome o = body();
    record(f, o, std::chrono::steady_clock::now() - start);
    return o.code;
  } catch (const mpi_failure& e) {
    return raise(comm, e.error_class, e.message);
  } catch (const std::bad_alloc&) {
    return raise(comm, MPI_ERR_NO_MEM, std::string(info(f).name) + ": out of memory");
  } catch (const std::exception& e) {  // collectives::error, or an MPI failure inside the library
    return raise(comm, MPI_ERR_OTHER, e.what());
  }
}

inline outcome served(algorithm a, std::size_t bytes) { return {true, a, {}, bytes, MPI_SUCCESS}; }
inline outcome forwarded(forward_reason r, std::size_t bytes, int code) {
  return {false, {}, r, bytes, code};
}

}  // namespace collectives::pmpi
