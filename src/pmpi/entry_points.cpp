// SPDX-License-Identifier: BSD-3-Clause
// The MPI C entry points of libcollectives_mpi.so. Each one checks its arguments (bad ones
// become MPI error classes through the communicator's error handler), forwards the call
// unchanged to PMPI_… when the library should not serve it (intercommunicator, `vendor`
// selected, `fastest` selected and the decision table measured vendor faster at this size, a
// predefined op MPI does not define on the datatype), and otherwise maps buffers,
// datatype and op onto one library request:
//   - the non-reducing collectives move bytes (count · type size per block), so send and receive
//     types may differ as MPI allows, as long as each block carries the same bytes;
//   - the reducing ones move elements of the datatype's size with a kernel or MPI_Reduce_local;
//   - MPI_IN_PLACE: where the input lies in the output buffer, a copy of it is the input;
//   - the v-variants' int counts and displacements (elements, displacements in the datatype's
//     extent) become the library's counts and displacements in bytes of the packed elements;
//     a non-contiguous receive span is packed with what it holds, so gaps keep their bytes.
// A collective selected `vendor` (with no report) is forwarded by the entry point itself, before
// any check: the MPI library checks its arguments, as without the drop-in.
// MPI_Init/MPI_Init_thread check COLLECTIVES_ALGORITHMS (and, for `fastest`, that the table loads);
// MPI_Finalize prints the report. MPI_Comm_free/MPI_Comm_disconnect only count, for the memory of
// the last call `fastest` forwarded (last_forwarded, boundary.hpp), and forward.
// Every collective forwards at its entry point a call of the shape `fastest` last forwarded
// (forwarded_last_time; allgatherv and MPI_Reduce_scatter, whose decision reads their counts, with
// the same counts); every one without count arrays serves a call of the shape it last served with
// the same request and no checks (served_as_last_time; both in boundary.hpp).

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

#include "pmpi/boundary.hpp"
#include "pmpi/settings.hpp"

#define COLLECTIVES_MPI_EXPORT __attribute__((visibility("default")))

namespace collectives::pmpi {
namespace {

using detail::element_type;
using bytes_t = std::vector<std::byte>;

constexpr element_type byte_elements{1, detail::builtin_type::none};

std::size_t sz(int n) { return static_cast<std::size_t>(n); }
std::byte* writable(const std::byte* p) { return const_cast<std::byte*>(p); }
const void* block_at(const void* buf, std::size_t index, const layout& l) {
  return static_cast<const std::byte*>(buf) + static_cast<MPI_Aint>(index) * l.extent;
}

int after_init(int code) {
  if (code != MPI_SUCCESS) return code;
  const settings& s = current_settings();
  if (s.help) exit_with_help();
  const std::string problem = s.problem.empty() ? fastest_problem(s) : s.problem;
  if (!problem.empty()) {
    // Every rank says why, then the job stops before the application runs. Each rank ends
    // itself (finalize, exit 1) rather than MPI_Abort: an abort lets the launcher kill ranks
    // whose line it has not yet forwarded (seen with MPICH's hydra: 2 lines of 3).
    std::fprintf(stderr, "%s\n", problem.c_str());
    std::fflush(stderr);
    PMPI_Finalize();
    std::exit(1);
  }
  make_plan();  // from now on a collective selected `vendor` without a report goes straight to PMPI_
  return code;
}

// The shapes forwarded_last_time and served_as_last_time compare (boundary.hpp): the arguments
// but the communicator and the buffers, and which buffers are MPI_IN_PLACE. The served path
// computes its own rather than taking the entry point's, so that an entry point that forwards
// needs no stack frame. The v-variants leave their count arrays out (they are never served from
// memory): `fastest` decides gatherv, scatterv and alltoallv by the process count alone, and
// remembers the counts of allgatherv and MPI_Reduce_scatter beside their shape.
call_shape bcast_shape(const void* buffer, int count, MPI_Datatype type, int root) {
  return shape_of(both_ints(count, root), type, buffer == MPI_IN_PLACE);
}
call_shape block_shape(const void* sendbuf, int sendcount, MPI_Datatype sendtype, const void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root = 0) {
  return shape_of(both_ints(sendcount, recvcount), sendtype, recvtype,
                  both_ints(root, static_cast<int>(in_place_bits(sendbuf, recvbuf))));
}
call_shape reduction_shape(const void* sendbuf, const void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                           int root = 0) {
  return shape_of(both_ints(count, root), type, op, in_place_bits(sendbuf, recvbuf));
}
call_shape gatherv_shape(const void* sendbuf, int sendcount, MPI_Datatype sendtype, const void* recvbuf,
                         MPI_Datatype recvtype, int root) {
  return shape_of(both_ints(sendcount, root), sendtype, recvtype, in_place_bits(sendbuf, recvbuf));
}
call_shape scatterv_shape(const void* sendbuf, MPI_Datatype sendtype, const void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root) {
  return shape_of(both_ints(recvcount, root), sendtype, recvtype, in_place_bits(sendbuf, recvbuf));
}
call_shape allgatherv_shape(const void* sendbuf, int sendcount, MPI_Datatype sendtype, const void* recvbuf,
                            MPI_Datatype recvtype) {
  return shape_of(sendcount, sendtype, recvtype, in_place_bits(sendbuf, recvbuf));
}
call_shape reduce_scatter_shape(const void* sendbuf, const void* recvbuf, MPI_Datatype type, MPI_Op op) {
  return shape_of(type, op, in_place_bits(sendbuf, recvbuf));
}
call_shape alltoallv_shape(const void* sendbuf, MPI_Datatype sendtype, const void* recvbuf,
                           MPI_Datatype recvtype) {
  return shape_of(sendtype, recvtype, in_place_bits(sendbuf, recvbuf));
}

// The served path of each entry point, kept out of line: the entry point itself is then a few
// instructions around its PMPI_ call when it forwards at once (no stack frame to set up for the
// served path's locals).
[[gnu::noinline]] int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const call_shape shape = bcast_shape(buffer, count, datatype, root);
  const mpi_function f = mpi_function::bcast;
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, buffer, buffer)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter)
      return forwarded(forward_reason::intercommunicator, 0, PMPI_Bcast(buffer, count, datatype, root, comm));
    a.count("count", count);
    a.type("datatype", datatype);
    a.root(root);
    a.not_in_place("buffer", buffer);
    const layout l = describe(datatype);
    a.buffer("buffer", buffer, count, l);
    const std::size_t n = sz(count) * l.size;
    if (const auto why = to_vendor(a, shape, l.predefined, collective::broadcast, n))
      return forwarded(*why, n, PMPI_Bcast(buffer, count, datatype, root, comm));
    const algorithm alg = choose(collective::broadcast, a.size, n, n, true);
    bytes_t scratch;
    std::byte* data = a.rank == root ? writable(input_bytes(buffer, sz(count), l, scratch, comm))
                                     : output_bytes(buffer, sz(count), l, scratch);
    const detail::request r{collective::broadcast, data, n, data, n, byte_elements, nullptr, root, comm, alg};
    run_library(r);
    if (a.rank != root) store_output(buffer, sz(count), l, scratch, comm);
    remember_served(a, shape, plain(l), g, r, true, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const call_shape shape = block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  const mpi_function f = mpi_function::scatter;
  const auto forward = [&] {
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.root(root);
    const bool at_root = a.rank == root, in_place = at_root && recvbuf == MPI_IN_PLACE;
    layout sl{}, rl{};
    if (at_root) {
      a.count("sendcount", sendcount);
      a.type("sendtype", sendtype);
      a.not_in_place("sendbuf", sendbuf);
      sl = describe(sendtype);
      a.buffer("sendbuf", sendbuf, sendcount, sl);
    }
    if (!in_place) {
      a.count("recvcount", recvcount);
      a.type("recvtype", recvtype);
      a.not_in_place("recvbuf", recvbuf);
      rl = describe(recvtype);
      a.buffer("recvbuf", recvbuf, recvcount, rl);
    }
    const std::size_t n = in_place ? sz(sendcount) * sl.size : sz(recvcount) * rl.size;
    if (at_root) a.same_bytes(sz(sendcount) * sl.size, n);
    const bool predefined = (!at_root || sl.predefined) && (in_place || rl.predefined);
    if (const auto why = to_vendor(a, shape, predefined, collective::scatter, n))
      return forwarded(*why, n, forward());
    const algorithm alg = choose(collective::scatter, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::size_t p = sz(a.size);
    const std::byte* send =
        at_root ? input_bytes(sendbuf, p * sz(sendcount), sl, send_scratch, comm) : nullptr;
    std::byte* recv = nullptr;
    if (in_place) {
      recv_scratch.resize(n);  // the root's own block stays where it is in sendbuf
      recv = recv_scratch.data();
    } else {
      recv = output_bytes(recvbuf, sz(recvcount), rl, recv_scratch);
    }
    const detail::request r{
        collective::scatter, send, at_root ? p * n : 0, recv, n, byte_elements, nullptr, root, comm, alg};
    run_library(r);
    if (!in_place) store_output(recvbuf, sz(recvcount), rl, recv_scratch, comm);
    remember_served(a, shape, !in_place && (!at_root || plain(sl)) && plain(rl), g, r, false, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const call_shape shape = block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root);
  const mpi_function f = mpi_function::gather;
  const auto forward = [&] {
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.root(root);
    const bool at_root = a.rank == root, in_place = at_root && sendbuf == MPI_IN_PLACE;
    layout sl{}, rl{};
    if (!at_root) a.not_in_place("sendbuf", sendbuf);
    if (!in_place) {
      a.count("sendcount", sendcount);
      a.type("sendtype", sendtype);
      sl = describe(sendtype);
      a.buffer("sendbuf", sendbuf, sendcount, sl);
    }
    if (at_root) {
      a.count("recvcount", recvcount);
      a.type("recvtype", recvtype);
      a.not_in_place("recvbuf", recvbuf);
      rl = describe(recvtype);
      a.buffer("recvbuf", recvbuf, recvcount, rl);
    }
    const std::size_t n = in_place ? sz(recvcount) * rl.size : sz(sendcount) * sl.size;
    if (at_root) a.same_bytes(n, sz(recvcount) * rl.size);
    const bool predefined = (in_place || sl.predefined) && (!at_root || rl.predefined);
    if (const auto why = to_vendor(a, shape, predefined, collective::gather, n))
      return forwarded(*why, n, forward());
    const algorithm alg = choose(collective::gather, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::size_t p = sz(a.size);
    const std::byte* send = in_place ? input_copy(block_at(recvbuf, sz(root) * sz(recvcount), rl),
                                                  sz(recvcount), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = at_root ? output_bytes(recvbuf, p * sz(recvcount), rl, recv_scratch) : nullptr;
    const detail::request r{collective::gather, send,    n,    recv, at_root ? p * n : 0,
                            byte_elements,      nullptr, root, comm, alg};
    run_library(r);
    if (at_root) store_output(recvbuf, p * sz(recvcount), rl, recv_scratch, comm);
    remember_served(a, shape, !in_place && plain(sl) && (!at_root || plain(rl)), g, r, false, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                             int root, MPI_Comm comm) {
  const call_shape shape = reduction_shape(sendbuf, recvbuf, count, datatype, op, root);
  const mpi_function f = mpi_function::reduce;
  const auto forward = [&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.count("count", count);
    a.type("datatype", datatype);
    a.op(op);
    a.root(root);
    const bool at_root = a.rank == root, in_place = at_root && sendbuf == MPI_IN_PLACE;
    if (!at_root) a.not_in_place("sendbuf", sendbuf);
    const layout l = describe(datatype);
    if (!in_place) a.buffer("sendbuf", sendbuf, count, l);
    if (at_root) {
      a.not_in_place("recvbuf", recvbuf);
      a.buffer("recvbuf", recvbuf, count, l);
    }
    const std::size_t n = sz(count) * l.size;
    if (const auto why = to_vendor(a, shape, l.predefined, collective::reduce, n))
      return forwarded(*why, n, forward());
    mapped_reduction m;
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, n, forward());
    const algorithm alg = choose(collective::reduce, a.size, n, sz(count), m.red.commutative);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, sz(count), l, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(count), l, send_scratch, comm);
    std::byte* recv = at_root ? output_bytes(recvbuf, sz(count), l, recv_scratch) : nullptr;
    const detail::request r{
        collective::reduce, send, sz(count), recv, at_root ? sz(count) : 0, m.elem, &m.red, root, comm, alg};
    run_library(r);
    if (at_root) store_output(recvbuf, sz(count), l, recv_scratch, comm);
    remember_served(a, shape, !in_place && plain(l), g, r, false, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const call_shape shape = block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const mpi_function f = mpi_function::allgather;
  const auto forward = [&] {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    const bool in_place = sendbuf == MPI_IN_PLACE;
    a.count("recvcount", recvcount);
    a.type("recvtype", recvtype);
    a.not_in_place("recvbuf", recvbuf);
    const layout rl = describe(recvtype);
    a.buffer("recvbuf", recvbuf, recvcount, rl);
    const std::size_t n = sz(recvcount) * rl.size;
    layout sl{};
    if (!in_place) {
      a.count("sendcount", sendcount);
      a.type("sendtype", sendtype);
      sl = describe(sendtype);
      a.buffer("sendbuf", sendbuf, sendcount, sl);
      a.same_bytes(sz(sendcount) * sl.size, n);
    }
    const bool predefined = rl.predefined && (in_place || sl.predefined);
    if (const auto why = to_vendor(a, shape, predefined, collective::allgather, n))
      return forwarded(*why, n, forward());
    const algorithm alg = choose(collective::allgather, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::size_t p = sz(a.size);
    const std::byte* send = in_place ? input_copy(block_at(recvbuf, sz(a.rank) * sz(recvcount), rl),
                                                  sz(recvcount), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, p * sz(recvcount), rl, recv_scratch);
    const detail::request r{collective::allgather, send,    n, recv, p * n,
                            byte_elements,         nullptr, 0, comm, alg};
    run_library(r);
    store_output(recvbuf, p * sz(recvcount), rl, recv_scratch, comm);
    remember_served(a, shape, !in_place && plain(sl) && plain(rl), g, r, false, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const call_shape shape = reduction_shape(sendbuf, recvbuf, recvcount, datatype, op);
  const mpi_function f = mpi_function::reduce_scatter_block;
  const auto forward = [&] {
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.count("recvcount", recvcount);
    a.type("datatype", datatype);
    a.op(op);
    a.not_in_place("recvbuf", recvbuf);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const layout l = describe(datatype);
    const std::size_t p = sz(a.size), count = sz(recvcount);
    a.buffer("recvbuf", recvbuf, in_place ? static_cast<int>(p * count) : recvcount, l);
    if (!in_place) a.buffer("sendbuf", sendbuf, recvcount, l);
    const std::size_t n = p * count * l.size;
    if (const auto why = to_vendor(a, shape, l.predefined, collective::reduce_scatter, count * l.size))
      return forwarded(*why, n, forward());
    mapped_reduction m;
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, n, forward());
    const algorithm alg =
        choose(collective::reduce_scatter, a.size, count * l.size, count, m.red.commutative);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, p * count, l, send_scratch, comm)
                                     : input_bytes(sendbuf, p * count, l, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, count, l, recv_scratch);
    const detail::request r{
        collective::reduce_scatter, send, p * count, recv, count, m.elem, &m.red, 0, comm, alg};
    run_library(r);
    store_output(recvbuf, count, l, recv_scratch, comm);
    remember_served(a, shape, !in_place && plain(l), g, r, false, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  const call_shape shape = block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
  const mpi_function f = mpi_function::alltoall;
  const auto forward = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    const bool in_place = sendbuf == MPI_IN_PLACE;
    a.count("recvcount", recvcount);
    a.type("recvtype", recvtype);
    a.not_in_place("recvbuf", recvbuf);
    const layout rl = describe(recvtype);
    a.buffer("recvbuf", recvbuf, recvcount, rl);
    const std::size_t n = sz(recvcount) * rl.size, p = sz(a.size);
    layout sl{};
    if (!in_place) {
      a.count("sendcount", sendcount);
      a.type("sendtype", sendtype);
      sl = describe(sendtype);
      a.buffer("sendbuf", sendbuf, sendcount, sl);
      a.same_bytes(sz(sendcount) * sl.size, n);
    }
    const bool predefined = rl.predefined && (in_place || sl.predefined);
    if (const auto why = to_vendor(a, shape, predefined, collective::alltoall, n))
      return forwarded(*why, p * n, forward());
    const algorithm alg = choose(collective::alltoall, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, p * sz(recvcount), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, p * sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, p * sz(recvcount), rl, recv_scratch);
    const detail::request r{collective::alltoall, send,    p * n, recv, p * n,
                            byte_elements,        nullptr, 0,     comm, alg};
    run_library(r);
    store_output(recvbuf, p * sz(recvcount), rl, recv_scratch, comm);
    remember_served(a, shape, !in_place && plain(sl) && plain(rl), g, r, false, p * n);
    return served(alg, p * n);
  });
}

[[gnu::noinline]] int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm) {
  const call_shape shape = reduction_shape(sendbuf, recvbuf, count, datatype, op);
  const mpi_function f = mpi_function::allreduce;
  const auto forward = [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.count("count", count);
    a.type("datatype", datatype);
    a.op(op);
    a.not_in_place("recvbuf", recvbuf);
    const layout l = describe(datatype);
    a.buffer("recvbuf", recvbuf, count, l);
    if (!in_place) a.buffer("sendbuf", sendbuf, count, l);
    const std::size_t n = sz(count) * l.size;
    if (const auto why = to_vendor(a, shape, l.predefined, collective::allreduce, n))
      return forwarded(*why, n, forward());
    mapped_reduction m;
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, n, forward());
    const algorithm alg = choose(collective::allreduce, a.size, n, sz(count), m.red.commutative);
    bytes_t send_scratch, recv_scratch;
    std::byte* recv = nullptr;
    const std::byte* send = nullptr;
    if (in_place) {  // the library's in-place form: the same range twice
      recv = l.contiguous ? output_bytes(recvbuf, sz(count), l, recv_scratch)
                          : writable(input_bytes(recvbuf, sz(count), l, recv_scratch, comm));
      send = recv;
    } else {
      send = input_bytes(sendbuf, sz(count), l, send_scratch, comm);
      recv = output_bytes(recvbuf, sz(count), l, recv_scratch);
    }
    const detail::request r{
        collective::allreduce, send, sz(count), recv, sz(count), m.elem, &m.red, 0, comm, alg};
    run_library(r);
    store_output(recvbuf, sz(count), l, recv_scratch, comm);
    remember_served(a, shape, plain(l), g, r, in_place, n);
    return served(alg, n);
  });
}

[[gnu::noinline]] int barrier(MPI_Comm comm) {
  const call_shape shape{};
  const mpi_function f = mpi_function::barrier;
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, nullptr, nullptr)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, PMPI_Barrier(comm));
    if (const auto why = to_vendor(a, shape, true, collective::barrier, 0))
      return forwarded(*why, 0, PMPI_Barrier(comm));
    const algorithm alg = choose(collective::barrier, a.size, 0, 0, true);
    const detail::request r{collective::barrier, nullptr, 0, nullptr, 0,
                            byte_elements,       nullptr, 0, comm,    alg};
    run_library(r);
    remember_served(a, shape, true, g, r, false, 0);
    return served(alg, 0);
  });
}

// MPI_Scan and MPI_Exscan: the same arguments as MPI_Allreduce. Exscan leaves rank 0's recvbuf
// as it was (MPI leaves it undefined).
[[gnu::noinline]] int prefix(mpi_function f, const void* sendbuf, void* recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const call_shape shape = reduction_shape(sendbuf, recvbuf, count, datatype, op);
  const bool exclusive = f == mpi_function::exscan;
  const collective c = info(f).coll;
  const auto forward = [&] {
    return exclusive ? PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm)
                     : PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  };
  return at_boundary(f, comm, [&] {
    if (served_as_last_time(f, comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
    const generations g;
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.count("count", count);
    a.type("datatype", datatype);
    a.op(op);
    a.not_in_place("recvbuf", recvbuf);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const layout l = describe(datatype);
    a.buffer("recvbuf", recvbuf, count, l);
    if (!in_place) a.buffer("sendbuf", sendbuf, count, l);
    const std::size_t n = sz(count) * l.size;
    if (const auto why = to_vendor(a, shape, l.predefined, c, n)) return forwarded(*why, n, forward());
    mapped_reduction m;
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, n, forward());
    const algorithm alg = choose(c, a.size, n, sz(count), m.red.commutative);
    bytes_t send_scratch, recv_scratch;
    std::byte* recv = nullptr;
    const std::byte* send = nullptr;
    if (in_place) {  // the library's in-place form: the same range twice
      recv = l.contiguous ? output_bytes(recvbuf, sz(count), l, recv_scratch)
                          : writable(input_bytes(recvbuf, sz(count), l, recv_scratch, comm));
      send = recv;
    } else {
      send = input_bytes(sendbuf, sz(count), l, send_scratch, comm);
      recv = output_bytes(recvbuf, sz(count), l, recv_scratch);
    }
    const detail::request r{c, send, sz(count), recv, sz(count), m.elem, &m.red, 0, comm, alg};
    run_library(r);
    if (!(exclusive && a.rank == 0)) store_output(recvbuf, sz(count), l, recv_scratch, comm);
    remember_served(a, shape, plain(l), g, r, in_place, n);
    return served(alg, n);
  });
}

// A v-variant's MPI counts and displacements (in elements of a datatype, displacements in its
// extent), checked, and what the call needs of them: the bytes of all blocks and of the largest,
// and the elements they span from buf.
struct v_blocks {
  const int* counts = nullptr;
  const int* displs = nullptr;  ///< null: packed in rank order (MPI_Reduce_scatter)
  std::size_t size = 0;         ///< the datatype's bytes per element
  std::size_t span = 0;
  std::size_t total = 0, largest = 0;  ///< bytes

  std::size_t count(int r) const { return sz(counts[r]) * size; }  ///< bytes
};

v_blocks v_layout(const arguments& a, std::string_view counts_name, const int* counts,
                  std::string_view displs_name, const int* displs, const layout& l) {
  if (counts == nullptr) a.fail(MPI_ERR_ARG, fmt::format("{} is NULL", counts_name));
  if (displs_name.size() > 0 && displs == nullptr)
    a.fail(MPI_ERR_ARG, fmt::format("{} is NULL", displs_name));
  v_blocks b{counts, displs, l.size};
  std::size_t at = 0;
  for (int r = 0; r < a.size; ++r) {
    if (counts[r] < 0)
      a.fail(MPI_ERR_COUNT, fmt::format("{}[{}] = {} is negative", counts_name, r, counts[r]));
    if (displs != nullptr && displs[r] < 0 && counts[r] > 0)
      a.fail(MPI_ERR_ARG, fmt::format("{}[{}] = {} is negative", displs_name, r, displs[r]));
    const std::size_t d = displs != nullptr ? static_cast<std::size_t>(displs[r]) : at;
    if (counts[r] > 0) b.span = std::max(b.span, d + sz(counts[r]));
    b.total += b.count(r);
    b.largest = std::max(b.largest, b.count(r));
    at += sz(counts[r]);
  }
  return b;
}

// `b`'s blocks as the library takes them: counts and displacements in bytes (the drop-in moves
// bytes, so every rank counts alike whatever datatypes it passes; an empty block's displacement
// 0, as MPI ignores it), written into this thread's arrays `side` (0 or 1: alltoallv has two), kept
// from call to call so that a served call allocates nothing for them once they are large enough.
// Valid until this thread's next served call: the library reads them during the call only.
struct v_arrays {
  detail::index_array counts, displs;
};
v_arrays in_bytes(const v_blocks& b, int p, int side) {
  constinit thread_local std::array<std::vector<std::size_t>, 4> kept;
  std::vector<std::size_t>& counts = kept[sz(2 * side)];
  std::vector<std::size_t>& displs = kept[sz(2 * side + 1)];
  counts.resize(sz(p));
  displs.resize(sz(p));
  std::size_t at = 0;
  for (int r = 0; r < p; ++r) {
    const std::size_t d = b.displs != nullptr ? static_cast<std::size_t>(b.displs[r]) : at;
    counts[sz(r)] = b.count(r);
    displs[sz(r)] = b.counts[r] > 0 ? d * b.size : 0;
    at += sz(b.counts[r]);
  }
  return {detail::make_index_array(counts), detail::make_index_array(displs)};
}

int span_int(std::size_t span) { return static_cast<int>(std::min<std::size_t>(span, INT_MAX)); }

// Where a v-variant writes the blocks for `buf`: in place when contiguous, else a packed copy of
// the whole span (so the gaps between blocks keep their bytes when store_output unpacks it).
std::byte* v_output(void* buf, const v_blocks& b, const layout& l, bytes_t& scratch, MPI_Comm comm) {
  return l.contiguous ? output_bytes(buf, b.span, l, scratch)
                      : writable(input_copy(buf, b.span, l, scratch, comm));
}

[[gnu::noinline]] int gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int* recvcounts, const int* displs, MPI_Datatype recvtype, int root,
                              MPI_Comm comm) {
  const call_shape shape = gatherv_shape(sendbuf, sendcount, sendtype, recvbuf, recvtype, root);
  const mpi_function f = mpi_function::gatherv;
  const auto forward = [&] {
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  };
  return at_boundary(f, comm, [&] {
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.root(root);
    const bool at_root = a.rank == root, in_place = at_root && sendbuf == MPI_IN_PLACE;
    layout sl{}, rl{};
    v_blocks rb;
    if (!at_root) a.not_in_place("sendbuf", sendbuf);
    if (!in_place) {
      a.count("sendcount", sendcount);
      a.type("sendtype", sendtype);
      sl = describe(sendtype);
      a.buffer("sendbuf", sendbuf, sendcount, sl);
    }
    if (at_root) {
      a.type("recvtype", recvtype);
      a.not_in_place("recvbuf", recvbuf);
      rl = describe(recvtype);
      rb = v_layout(a, "recvcounts", recvcounts, "displs", displs, rl);
      a.buffer("recvbuf", recvbuf, span_int(rb.span), rl);
    }
    const std::size_t n = in_place ? rb.count(root) : sz(sendcount) * sl.size;
    if (at_root) a.same_bytes(n, rb.count(root));
    if (const auto why = to_vendor(a, shape, true, collective::gatherv, 0))
      return forwarded(*why, n, forward());
    const algorithm alg = choose(collective::gatherv, a.size, 0, 0, true);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(block_at(recvbuf, sz(displs[root]), rl),
                                                  sz(recvcounts[root]), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = at_root ? v_output(recvbuf, rb, rl, recv_scratch, comm) : nullptr;
    detail::block_arguments blocks;
    if (at_root) {
      const v_arrays recv_blocks = in_bytes(rb, a.size, 0);
      blocks.recv_counts = recv_blocks.counts;
      blocks.recv_displs = recv_blocks.displs;
    }
    const detail::request r{collective::gatherv,
                            send,
                            n,
                            recv,
                            rb.span * rl.size,
                            byte_elements,
                            nullptr,
                            root,
                            comm,
                            alg,
                            &blocks};
    run_library(r);
    if (at_root) store_output(recvbuf, rb.span, rl, recv_scratch, comm);
    return served(alg, n);
  });
}

[[gnu::noinline]] int scatterv(const void* sendbuf, const int* sendcounts, const int* displs,
                               MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                               int root, MPI_Comm comm) {
  const call_shape shape = scatterv_shape(sendbuf, sendtype, recvbuf, recvcount, recvtype, root);
  const mpi_function f = mpi_function::scatterv;
  const auto forward = [&] {
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  };
  return at_boundary(f, comm, [&] {
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.root(root);
    const bool at_root = a.rank == root, in_place = at_root && recvbuf == MPI_IN_PLACE;
    layout sl{}, rl{};
    v_blocks sb;
    if (at_root) {
      a.type("sendtype", sendtype);
      a.not_in_place("sendbuf", sendbuf);
      sl = describe(sendtype);
      sb = v_layout(a, "sendcounts", sendcounts, "displs", displs, sl);
      a.buffer("sendbuf", sendbuf, span_int(sb.span), sl);
    }
    if (!in_place) {
      a.count("recvcount", recvcount);
      a.type("recvtype", recvtype);
      a.not_in_place("recvbuf", recvbuf);
      rl = describe(recvtype);
      a.buffer("recvbuf", recvbuf, recvcount, rl);
    }
    const std::size_t n = in_place ? sb.count(root) : sz(recvcount) * rl.size;
    if (at_root) a.same_bytes(sb.count(root), n);
    if (const auto why = to_vendor(a, shape, true, collective::scatterv, 0))
      return forwarded(*why, n, forward());
    const algorithm alg = choose(collective::scatterv, a.size, 0, 0, true);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = at_root ? input_bytes(sendbuf, sb.span, sl, send_scratch, comm) : nullptr;
    std::byte* recv = nullptr;
    if (in_place) {
      recv_scratch.resize(n);  // the root's own block stays where it is in sendbuf
      recv = recv_scratch.data();
    } else {
      recv = output_bytes(recvbuf, sz(recvcount), rl, recv_scratch);
    }
    detail::block_arguments blocks;
    if (at_root) {
      const v_arrays send_blocks = in_bytes(sb, a.size, 0);
      blocks.send_counts = send_blocks.counts;
      blocks.send_displs = send_blocks.displs;
    }
    const detail::request r{collective::scatterv,
                            send,
                            sb.span * sl.size,
                            recv,
                            n,
                            byte_elements,
                            nullptr,
                            root,
                            comm,
                            alg,
                            &blocks};
    run_library(r);
    if (!in_place) store_output(recvbuf, sz(recvcount), rl, recv_scratch, comm);
    return served(alg, n);
  });
}

[[gnu::noinline]] int allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int* recvcounts, const int* displs, MPI_Datatype recvtype,
                                 MPI_Comm comm) {
  const mpi_function f = mpi_function::allgatherv;
  const auto forward = [&] {
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  };
  return at_boundary(f, comm, [&] {
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    const bool in_place = sendbuf == MPI_IN_PLACE;
    a.type("recvtype", recvtype);
    a.not_in_place("recvbuf", recvbuf);
    const layout rl = describe(recvtype);
    const v_blocks rb = v_layout(a, "recvcounts", recvcounts, "displs", displs, rl);
    a.buffer("recvbuf", recvbuf, span_int(rb.span), rl);
    const std::size_t n = rb.count(a.rank);
    layout sl{};
    if (!in_place) {
      a.count("sendcount", sendcount);
      a.type("sendtype", sendtype);
      sl = describe(sendtype);
      a.buffer("sendbuf", sendbuf, sendcount, sl);
      a.same_bytes(sz(sendcount) * sl.size, n);
    }
    const call_shape shape = allgatherv_shape(sendbuf, sendcount, sendtype, recvbuf, recvtype);
    if (const auto why =
            to_vendor(a, shape, rl.predefined, collective::allgatherv, rb.total, rb.largest, recvcounts))
      return forwarded(*why, n, forward());
    const algorithm alg = choose(collective::allgatherv, a.size, rb.total, rb.total, true, rb.largest);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(block_at(recvbuf, sz(displs[a.rank]), rl),
                                                  sz(recvcounts[a.rank]), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = v_output(recvbuf, rb, rl, recv_scratch, comm);
    const v_arrays recv_blocks = in_bytes(rb, a.size, 0);
    const detail::block_arguments blocks{.recv_counts = recv_blocks.counts,
                                         .recv_displs = recv_blocks.displs};
    const detail::request r{collective::allgatherv,
                            send,
                            n,
                            recv,
                            rb.span * rl.size,
                            byte_elements,
                            nullptr,
                            0,
                            comm,
                            alg,
                            &blocks};
    run_library(r);
    store_output(recvbuf, rb.span, rl, recv_scratch, comm);
    return served(alg, n);
  });
}

// MPI_IN_PLACE (MPI 2.2): the blocks to send lie where the received ones go (recvcounts, rdispls,
// recvtype); a copy of that span is the input.
[[gnu::noinline]] int alltoallv(const void* sendbuf, const int* sendcounts, const int* sdispls,
                                MPI_Datatype sendtype, void* recvbuf, const int* recvcounts,
                                const int* rdispls, MPI_Datatype recvtype, MPI_Comm comm) {
  const call_shape shape = alltoallv_shape(sendbuf, sendtype, recvbuf, recvtype);
  const mpi_function f = mpi_function::alltoallv;
  const auto forward = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                          comm);
  };
  return at_boundary(f, comm, [&] {
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    const bool in_place = sendbuf == MPI_IN_PLACE;
    a.type("recvtype", recvtype);
    a.not_in_place("recvbuf", recvbuf);
    const layout rl = describe(recvtype);
    const v_blocks rb = v_layout(a, "recvcounts", recvcounts, "rdispls", rdispls, rl);
    a.buffer("recvbuf", recvbuf, span_int(rb.span), rl);
    layout sl = rl;
    v_blocks sb = rb;
    if (!in_place) {
      a.type("sendtype", sendtype);
      sl = describe(sendtype);
      sb = v_layout(a, "sendcounts", sendcounts, "sdispls", sdispls, sl);
      a.buffer("sendbuf", sendbuf, span_int(sb.span), sl);
    }
    if (const auto why = to_vendor(a, shape, true, collective::alltoallv, 0))
      return forwarded(*why, sb.total, forward());
    const algorithm alg = choose(collective::alltoallv, a.size, 0, 0, true);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, rb.span, rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sb.span, sl, send_scratch, comm);
    std::byte* recv = v_output(recvbuf, rb, rl, recv_scratch, comm);
    const v_arrays send_blocks = in_bytes(sb, a.size, 0), recv_blocks = in_bytes(rb, a.size, 1);
    const detail::block_arguments blocks{send_blocks.counts, send_blocks.displs, recv_blocks.counts,
                                         recv_blocks.displs};
    const detail::request r{collective::alltoallv,
                            send,
                            sb.span * sl.size,
                            recv,
                            rb.span * rl.size,
                            byte_elements,
                            nullptr,
                            0,
                            comm,
                            alg,
                            &blocks};
    run_library(r);
    store_output(recvbuf, rb.span, rl, recv_scratch, comm);
    return served(alg, sb.total);
  });
}

// MPI_Reduce_scatter: the library's reduce_scatterv, with rank r's block recvcounts[r] elements.
[[gnu::noinline]] int reduce_scatter(const void* sendbuf, void* recvbuf, const int* recvcounts,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const mpi_function f = mpi_function::reduce_scatter;
  const auto forward = [&] { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); };
  return at_boundary(f, comm, [&] {
    const arguments a(f, comm);
    if (a.inter) return forwarded(forward_reason::intercommunicator, 0, forward());
    a.type("datatype", datatype);
    a.op(op);
    a.not_in_place("recvbuf", recvbuf);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const layout l = describe(datatype);
    const v_blocks b = v_layout(a, "recvcounts", recvcounts, "", nullptr, l);
    const std::size_t total = b.span, count = sz(recvcounts[a.rank]);
    a.buffer("recvbuf", recvbuf, in_place ? span_int(total) : recvcounts[a.rank], l);
    if (!in_place) a.buffer("sendbuf", sendbuf, span_int(total), l);
    const call_shape shape = reduce_scatter_shape(sendbuf, recvbuf, datatype, op);
    if (const auto why =
            to_vendor(a, shape, l.predefined, collective::reduce_scatterv, b.total, b.largest, recvcounts))
      return forwarded(*why, b.total, forward());
    mapped_reduction m;
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, b.total, forward());
    const algorithm alg =
        choose(collective::reduce_scatterv, a.size, b.total, total, m.red.commutative, b.largest);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, total, l, send_scratch, comm)
                                     : input_bytes(sendbuf, total, l, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, count, l, recv_scratch);
    const detail::block_arguments blocks{
        .recv_counts = detail::make_index_array(std::span<const int>(recvcounts, sz(a.size)))};
    const detail::request r{
        collective::reduce_scatterv, send, total, recv, count, m.elem, &m.red, 0, comm, alg, &blocks};
    run_library(r);
    store_output(recvbuf, count, l, recv_scratch, comm);
    return served(alg, b.total);
  });
}

}  // namespace
}  // namespace collectives::pmpi

namespace pm = collectives::pmpi;

extern "C" {

COLLECTIVES_MPI_EXPORT int MPI_Init(int* argc, char*** argv) { return pm::after_init(PMPI_Init(argc, argv)); }

COLLECTIVES_MPI_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  return pm::after_init(PMPI_Init_thread(argc, argv, required, provided));
}

COLLECTIVES_MPI_EXPORT int MPI_Finalize(void) {
  const pm::settings& s = pm::current_settings();
  if (s.report_to) pm::print_report(s);
  return PMPI_Finalize();
}

// Only to know when a communicator handle may be reused (see comms_freed).
COLLECTIVES_MPI_EXPORT int MPI_Comm_free(MPI_Comm* comm) {
  pm::comms_freed.fetch_add(1, std::memory_order_acq_rel);
  return PMPI_Comm_free(comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Comm_disconnect(MPI_Comm* comm) {
  pm::comms_freed.fetch_add(1, std::memory_order_acq_rel);
  return PMPI_Comm_disconnect(comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                                     MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::bcast) ||
      pm::forwarded_last_time(pm::mpi_function::bcast, comm, pm::bcast_shape(buffer, count, datatype, root)))
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  return pm::bcast(buffer, count, datatype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                       MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::scatter) ||
      pm::forwarded_last_time(
          pm::mpi_function::scatter, comm,
          pm::block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)))
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return pm::scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                      MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::gather) ||
      pm::forwarded_last_time(
          pm::mpi_function::gather, comm,
          pm::block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)))
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return pm::gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                      MPI_Op op, int root, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::reduce) ||
      pm::forwarded_last_time(pm::mpi_function::reduce, comm,
                              pm::reduction_shape(sendbuf, recvbuf, count, datatype, op, root)))
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  return pm::reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::allgather) ||
      pm::forwarded_last_time(pm::mpi_function::allgather, comm,
                              pm::block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)))
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return pm::allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::reduce_scatter_block) ||
      pm::forwarded_last_time(pm::mpi_function::reduce_scatter_block, comm,
                              pm::reduction_shape(sendbuf, recvbuf, recvcount, datatype, op)))
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  return pm::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::alltoall) ||
      pm::forwarded_last_time(pm::mpi_function::alltoall, comm,
                              pm::block_shape(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)))
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return pm::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::allreduce) ||
      pm::forwarded_last_time(pm::mpi_function::allreduce, comm,
                              pm::reduction_shape(sendbuf, recvbuf, count, datatype, op)))
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return pm::allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Barrier(MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::barrier) ||
      pm::forwarded_last_time(pm::mpi_function::barrier, comm, pm::call_shape{}))
    return PMPI_Barrier(comm);
  return pm::barrier(comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::scan) ||
      pm::forwarded_last_time(pm::mpi_function::scan, comm,
                              pm::reduction_shape(sendbuf, recvbuf, count, datatype, op)))
    return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  return pm::prefix(pm::mpi_function::scan, sendbuf, recvbuf, count, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::exscan) ||
      pm::forwarded_last_time(pm::mpi_function::exscan, comm,
                              pm::reduction_shape(sendbuf, recvbuf, count, datatype, op)))
    return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
  return pm::prefix(pm::mpi_function::exscan, sendbuf, recvbuf, count, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, int root, MPI_Comm comm) {
  // `fastest` decides gatherv, scatterv and alltoallv by the process count alone (their sizes are
  // not known alike): the counts and displacements are no part of the shape.
  if (pm::forward_at_once(pm::mpi_function::gatherv) ||
      pm::forwarded_last_time(pm::mpi_function::gatherv, comm,
                              pm::gatherv_shape(sendbuf, sendcount, sendtype, recvbuf, recvtype, root)))
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  return pm::gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                                        MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                        MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::scatterv) ||
      pm::forwarded_last_time(pm::mpi_function::scatterv, comm,
                              pm::scatterv_shape(sendbuf, sendtype, recvbuf, recvcount, recvtype, root)))
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return pm::scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void* recvbuf, const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::allgatherv) ||
      pm::forwarded_last_time(pm::mpi_function::allgatherv, comm,
                              pm::allgatherv_shape(sendbuf, sendcount, sendtype, recvbuf, recvtype),
                              recvcounts))
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  return pm::allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::alltoallv) ||
      pm::forwarded_last_time(pm::mpi_function::alltoallv, comm,
                              pm::alltoallv_shape(sendbuf, sendtype, recvbuf, recvtype)))
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                          comm);
  return pm::alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (pm::forward_at_once(pm::mpi_function::reduce_scatter) ||
      pm::forwarded_last_time(pm::mpi_function::reduce_scatter, comm,
                              pm::reduce_scatter_shape(sendbuf, recvbuf, datatype, op), recvcounts))
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  return pm::reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

}  // extern "C"
