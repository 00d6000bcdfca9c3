// The MPI C entry points of libcollectives_mpi.so. Each one checks its arguments (bad ones
// become MPI error classes through the communicator's error handler), forwards the call
// unchanged to PMPI_… when the library should not serve it (intercommunicator, `vendor`
// selected, a predefined op MPI does not define on the datatype), and otherwise maps buffers,
// datatype and op onto one library request:
//   - the non-reducing collectives move bytes (count · type size per block), so send and receive
//     types may differ as MPI allows, as long as each block carries the same bytes;
//   - the reducing ones move elements of the datatype's size with a kernel or MPI_Reduce_local;
//   - MPI_IN_PLACE: where the input lies in the output buffer, a copy of it is the input.
// MPI_Init/MPI_Init_thread check COLLECTIVES_ALGORITHMS; MPI_Finalize prints the report.

#include <mpi.h>

#include <cstdio>

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
  if (!s.problem.empty()) {
    // Every rank says why, then the job stops before the application runs.
    std::fprintf(stderr, "%s\n", s.problem.c_str());
    std::fflush(stderr);
    PMPI_Barrier(MPI_COMM_WORLD);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return code;
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const mpi_function f = mpi_function::bcast;
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::broadcast))
      return forwarded(forward_reason::vendor_chosen, n, PMPI_Bcast(buffer, count, datatype, root, comm));
    const algorithm alg = choose(collective::broadcast, a.size, n, n, true);
    bytes_t scratch;
    std::byte* data = a.rank == root ? writable(input_bytes(buffer, sz(count), l, scratch, comm))
                                     : output_bytes(buffer, sz(count), l, scratch);
    run_library({collective::broadcast, data, n, data, n, byte_elements, nullptr, root, comm, alg});
    if (a.rank != root) store_output(buffer, sz(count), l, scratch, comm);
    return served(alg, n);
  });
}

int scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const mpi_function f = mpi_function::scatter;
  const auto forward = [&] {
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::scatter)) return forwarded(forward_reason::vendor_chosen, n, forward());
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
    run_library(
        {collective::scatter, send, at_root ? p * n : 0, recv, n, byte_elements, nullptr, root, comm, alg});
    if (!in_place) store_output(recvbuf, sz(recvcount), rl, recv_scratch, comm);
    return served(alg, n);
  });
}

int gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const mpi_function f = mpi_function::gather;
  const auto forward = [&] {
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::gather)) return forwarded(forward_reason::vendor_chosen, n, forward());
    const algorithm alg = choose(collective::gather, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::size_t p = sz(a.size);
    const std::byte* send = in_place ? input_copy(block_at(recvbuf, sz(root) * sz(recvcount), rl),
                                                  sz(recvcount), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = at_root ? output_bytes(recvbuf, p * sz(recvcount), rl, recv_scratch) : nullptr;
    run_library(
        {collective::gather, send, n, recv, at_root ? p * n : 0, byte_elements, nullptr, root, comm, alg});
    if (at_root) store_output(recvbuf, p * sz(recvcount), rl, recv_scratch, comm);
    return served(alg, n);
  });
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm) {
  const mpi_function f = mpi_function::reduce;
  const auto forward = [&] { return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm); };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::reduce)) return forwarded(forward_reason::vendor_chosen, n, forward());
    mapped_reduction m{};
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, n, forward());
    const algorithm alg = choose(collective::reduce, a.size, n, sz(count), m.red.commutative);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, sz(count), l, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(count), l, send_scratch, comm);
    std::byte* recv = at_root ? output_bytes(recvbuf, sz(count), l, recv_scratch) : nullptr;
    run_library({collective::reduce, send, sz(count), recv, at_root ? sz(count) : 0, m.elem, &m.red, root,
                 comm, alg});
    if (at_root) store_output(recvbuf, sz(count), l, recv_scratch, comm);
    return served(alg, n);
  });
}

int allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm) {
  const mpi_function f = mpi_function::allgather;
  const auto forward = [&] {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::allgather)) return forwarded(forward_reason::vendor_chosen, n, forward());
    const algorithm alg = choose(collective::allgather, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::size_t p = sz(a.size);
    const std::byte* send = in_place ? input_copy(block_at(recvbuf, sz(a.rank) * sz(recvcount), rl),
                                                  sz(recvcount), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, p * sz(recvcount), rl, recv_scratch);
    run_library({collective::allgather, send, n, recv, p * n, byte_elements, nullptr, 0, comm, alg});
    store_output(recvbuf, p * sz(recvcount), rl, recv_scratch, comm);
    return served(alg, n);
  });
}

int reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  const mpi_function f = mpi_function::reduce_scatter_block;
  const auto forward = [&] {
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::reduce_scatter))
      return forwarded(forward_reason::vendor_chosen, n, forward());
    mapped_reduction m{};
    if (!map_reduction(op, l, comm, m)) return forwarded(forward_reason::op, n, forward());
    const algorithm alg =
        choose(collective::reduce_scatter, a.size, count * l.size, count, m.red.commutative);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, p * count, l, send_scratch, comm)
                                     : input_bytes(sendbuf, p * count, l, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, count, l, recv_scratch);
    run_library({collective::reduce_scatter, send, p * count, recv, count, m.elem, &m.red, 0, comm, alg});
    store_output(recvbuf, count, l, recv_scratch, comm);
    return served(alg, n);
  });
}

int alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm) {
  const mpi_function f = mpi_function::alltoall;
  const auto forward = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::alltoall))
      return forwarded(forward_reason::vendor_chosen, p * n, forward());
    const algorithm alg = choose(collective::alltoall, a.size, n, n, true);
    bytes_t send_scratch, recv_scratch;
    const std::byte* send = in_place ? input_copy(recvbuf, p * sz(recvcount), rl, send_scratch, comm)
                                     : input_bytes(sendbuf, p * sz(sendcount), sl, send_scratch, comm);
    std::byte* recv = output_bytes(recvbuf, p * sz(recvcount), rl, recv_scratch);
    run_library({collective::alltoall, send, p * n, recv, p * n, byte_elements, nullptr, 0, comm, alg});
    store_output(recvbuf, p * sz(recvcount), rl, recv_scratch, comm);
    return served(alg, p * n);
  });
}

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm) {
  const mpi_function f = mpi_function::allreduce;
  const auto forward = [&] { return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm); };
  return at_boundary(f, comm, [&] {
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
    if (vendor_chosen(collective::allreduce)) return forwarded(forward_reason::vendor_chosen, n, forward());
    mapped_reduction m{};
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
    run_library({collective::allreduce, send, sz(count), recv, sz(count), m.elem, &m.red, 0, comm, alg});
    store_output(recvbuf, sz(count), l, recv_scratch, comm);
    return served(alg, n);
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

COLLECTIVES_MPI_EXPORT int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root,
                                     MPI_Comm comm) {
  if (pm::inside_library()) return PMPI_Bcast(buffer, count, datatype, root, comm);
  return pm::bcast(buffer, count, datatype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                       MPI_Comm comm) {
  if (pm::inside_library())
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return pm::scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                      MPI_Comm comm) {
  if (pm::inside_library())
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  return pm::gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                      MPI_Op op, int root, MPI_Comm comm) {
  if (pm::inside_library()) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  return pm::reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (pm::inside_library())
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return pm::allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (pm::inside_library()) return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  return pm::reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (pm::inside_library())
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return pm::alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm) {
  if (pm::inside_library()) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  return pm::allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

}  // extern "C"
