// SPDX-License-Identifier: BSD-3-Clause
// The MPI C entry points of libcollectives_mpi.so. Each collective's entry point hands its
// arguments to the one skeleton (skeleton.hpp) with a description of its MPI function: a struct of
// its arguments, its PMPI_ call, its shape, and its plan (its checks and how the library takes its
// buffers: bytes for the non-reducing collectives, elements for the reducing ones, MPI_IN_PLACE as
// a copy, the v-variants' counts and displacements in bytes). MPI_Init/MPI_Init_thread check the
// selection, MPI_Finalize prints the report, MPI_Comm_free/MPI_Comm_disconnect count and forward.
// The rules in full: docs/design.md, "The drop-in's path"; what is served and forwarded, for the
// user: docs/drop-in.md.

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "pmpi/settings.hpp"
#include "pmpi/skeleton.hpp"

#define COLLECTIVES_MPI_EXPORT __attribute__((visibility("default")))

namespace collectives::pmpi {
namespace {

int after_init(int code) {
  if (code != MPI_SUCCESS) return code;
  const settings& s = current_settings();
  if (s.help) exit_with_help();
  int world = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &world);
  std::string problem = s.problem.empty() ? fastest_problem(s) : s.problem;
  if (problem.empty()) problem = radix_above_world(s, world);
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

// ---- What the descriptions share ----

using buffer_pair = std::pair<const void*, void*>;

const void* block_at(const void* buf, std::size_t index, const layout& l) {
  return static_cast<const std::byte*>(buf) + static_cast<MPI_Aint>(index) * l.extent;
}

// ---- The descriptions (see skeleton.hpp for what each member says) ----

/// MPI_Bcast(buffer, count, datatype, root, comm).
struct bcast_call {
  static constexpr mpi_function f = mpi_function::bcast;
  void* buffer;
  int count;
  MPI_Datatype datatype;
  int root;
  MPI_Comm comm;

  int forward() const { return PMPI_Bcast(buffer, count, datatype, root, comm); }
  call_shape shape() const { return shape_of(both_ints(count, root), datatype, buffer == MPI_IN_PLACE); }
  buffer_pair buffers() const { return {buffer, buffer}; }
  served_plan plan(const arguments& a) const {
    a.count("count", count);
    a.type("datatype", datatype);
    a.root(root);
    a.not_in_place("buffer", buffer);
    const layout& l = a.describe(datatype);
    a.buffer("buffer", buffer, count, l);
    const std::size_t n = sz(count) * l.size;
    return {.bytes = n,
            .decide = n,
            .root = root,
            .send = {use::recv, buffer, sz(count), &l},
            .recv = {a.rank == root ? use::read : use::write, buffer, sz(count), &l}};
  }
};

/// MPI_Barrier(comm).
struct barrier_call {
  static constexpr mpi_function f = mpi_function::barrier;
  MPI_Comm comm;

  int forward() const { return PMPI_Barrier(comm); }
  call_shape shape() const { return {}; }
  buffer_pair buffers() const { return {nullptr, nullptr}; }
  served_plan plan(const arguments&) const { return {}; }
};

/// MPI_Reduce (with root), MPI_Allreduce, MPI_Scan, MPI_Exscan and MPI_Reduce_scatter_block (count:
/// its recvcount, each rank's block of the p in sendbuf): (sendbuf, recvbuf, count, datatype, op[,
/// root], comm).
template <mpi_function F, auto pmpi>
struct reduction_call {
  static constexpr mpi_function f = F;
  const void* sendbuf;
  void* recvbuf;
  int count, root = 0;
  MPI_Datatype datatype;
  MPI_Op op;
  MPI_Comm comm;

  reduction_call(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c)
      : sendbuf(s), recvbuf(r), count(n), datatype(t), op(o), comm(c) {}
  reduction_call(const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, int rt, MPI_Comm c)
      : reduction_call(s, r, n, t, o, c) {
    root = rt;
  }
  int forward() const {
    if constexpr (F == mpi_function::reduce)
      return pmpi(sendbuf, recvbuf, count, datatype, op, root, comm);
    else
      return pmpi(sendbuf, recvbuf, count, datatype, op, comm);
  }
  call_shape shape() const {
    return shape_of(both_ints(count, root), datatype, op, in_place_bits(sendbuf, recvbuf));
  }
  buffer_pair buffers() const { return {sendbuf, recvbuf}; }
  served_plan plan(const arguments& a) const;
};
using reduce_call = reduction_call<mpi_function::reduce, PMPI_Reduce>;
using allreduce_call = reduction_call<mpi_function::allreduce, PMPI_Allreduce>;
using scan_call = reduction_call<mpi_function::scan, PMPI_Scan>;
using exscan_call = reduction_call<mpi_function::exscan, PMPI_Exscan>;
using reduce_scatter_block_call =
    reduction_call<mpi_function::reduce_scatter_block, PMPI_Reduce_scatter_block>;

// MPI_Allreduce, MPI_Scan, MPI_Exscan, MPI_Reduce_scatter_block.
template <mpi_function F, auto pmpi>
served_plan reduction_call<F, pmpi>::plan(const arguments& a) const {
  constexpr bool blocks = F == mpi_function::reduce_scatter_block;
  a.count(blocks ? "recvcount" : "count", count);
  a.type("datatype", datatype);
  a.op(op);
  a.not_in_place("recvbuf", recvbuf);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const layout& l = a.describe(datatype);
  const std::size_t n = sz(count), all = blocks ? sz(a.size) * n : n;
  a.buffer("recvbuf", recvbuf, in_place ? static_cast<int>(all) : count, l);
  if (!in_place) a.buffer("sendbuf", sendbuf, count, l);
  served_plan s{.bytes = all * l.size,
                .decide = n * l.size,
                .elements = n,
                .send = {in_place ? use::copy : use::read, in_place ? recvbuf : sendbuf, all, &l},
                .recv = {use::write, recvbuf, n, &l}};
  if (!blocks && in_place) {  // the library's in-place form: the same range twice
    s.send.how = use::recv;
    s.recv.how = use::update;
  }
  // Exscan leaves rank 0's recvbuf as it was (MPI leaves it undefined).
  if (F == mpi_function::exscan && a.rank == 0) s.recv.how = use::read;
  return s;
}

template <>
served_plan reduce_call::plan(const arguments& a) const {
  a.count("count", count);
  a.type("datatype", datatype);
  a.op(op);
  const auto [at_root, in_place] = check_root(a, root, "sendbuf", sendbuf, true);
  const layout& l = a.describe(datatype);
  if (!in_place) a.buffer("sendbuf", sendbuf, count, l);
  if (at_root) {
    a.not_in_place("recvbuf", recvbuf);
    a.buffer("recvbuf", recvbuf, count, l);
  }
  const std::size_t n = sz(count);
  return {.bytes = n * l.size,
          .decide = n * l.size,
          .elements = n,
          .root = root,
          .send = {in_place ? use::copy : use::read, in_place ? recvbuf : sendbuf, n, &l},
          .recv = {at_root ? use::write : use::none, recvbuf, n, &l}};
}

/// MPI_Scatter and MPI_Gather (with root), MPI_Allgather and MPI_Alltoall: (sendbuf, sendcount,
/// sendtype, recvbuf, recvcount, recvtype[, root], comm), p blocks of the same bytes.
template <mpi_function F, auto pmpi>
struct block_call {
  static constexpr mpi_function f = F;
  const void* sendbuf;
  void* recvbuf;
  int sendcount, recvcount, root = 0;
  MPI_Datatype sendtype, recvtype;
  MPI_Comm comm;

  block_call(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm c)
      : sendbuf(sb), recvbuf(rb), sendcount(sc), recvcount(rc), sendtype(st), recvtype(rt), comm(c) {}
  block_call(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, int r, MPI_Comm c)
      : block_call(sb, sc, st, rb, rc, rt, c) {
    root = r;
  }
  buffer_pair buffers() const { return {sendbuf, recvbuf}; }
  call_shape shape() const {
    return shape_of(both_ints(sendcount, recvcount), sendtype, recvtype,
                    both_ints(root, static_cast<int>(in_place_bits(sendbuf, recvbuf))));
  }
  int forward() const {
    if constexpr (F == mpi_function::scatter || F == mpi_function::gather)
      return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    else
      return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  served_plan plan(const arguments& a) const;
};
using scatter_call = block_call<mpi_function::scatter, PMPI_Scatter>;
using gather_call = block_call<mpi_function::gather, PMPI_Gather>;
using allgather_call = block_call<mpi_function::allgather, PMPI_Allgather>;
using alltoall_call = block_call<mpi_function::alltoall, PMPI_Alltoall>;

// MPI_Allgather, MPI_Alltoall (all: p blocks to send, not one).
template <mpi_function F, auto pmpi>
served_plan block_call<F, pmpi>::plan(const arguments& a) const {
  constexpr bool all = F == mpi_function::alltoall;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const layout& rl = checked(a, recv_names, recvbuf, recvcount, recvtype, true);
  const std::size_t n = sz(recvcount) * rl.size, p = sz(a.size), blocks = all ? p : 1;
  const layout& sl = in_place ? no_layout : checked(a, send_names, sendbuf, sendcount, sendtype, false);
  if (!in_place) a.same_bytes(sz(sendcount) * sl.size, n);
  // In place, the input lies in recvbuf: this rank's block (allgather), or all p (alltoall).
  const void* own = in_place && !all ? block_at(recvbuf, sz(a.rank) * sz(recvcount), rl) : recvbuf;
  return {.bytes = blocks * n,
          .decide = n,
          .send = in_place ? side{use::copy, own, blocks * sz(recvcount), &rl}
                           : side{use::read, sendbuf, blocks * sz(sendcount), &sl},
          .recv = {use::write, recvbuf, p * sz(recvcount), &rl}};
}

template <>
served_plan scatter_call::plan(const arguments& a) const {
  const auto [at_root, in_place] = check_root(a, root, "recvbuf", recvbuf, false);
  const layout& sl = at_root ? checked(a, send_names, sendbuf, sendcount, sendtype, true) : no_layout;
  const layout& rl = in_place ? no_layout : checked(a, recv_names, recvbuf, recvcount, recvtype, true);
  const std::size_t n = in_place ? sz(sendcount) * sl.size : sz(recvcount) * rl.size;
  if (at_root) a.same_bytes(sz(sendcount) * sl.size, n);
  return {.bytes = n,
          .decide = n,
          .root = root,
          .send = {at_root ? use::read : use::none, sendbuf, sz(a.size) * sz(sendcount), &sl},
          // In place, the root's own block stays where it is in sendbuf.
          .recv = in_place ? side{use::discard, nullptr, sz(sendcount), &sl}
                           : side{use::write, recvbuf, sz(recvcount), &rl}};
}

template <>
served_plan gather_call::plan(const arguments& a) const {
  const auto [at_root, in_place] = check_root(a, root, "sendbuf", sendbuf, true);
  const layout& sl = in_place ? no_layout : checked(a, send_names, sendbuf, sendcount, sendtype, false);
  const layout& rl = at_root ? checked(a, recv_names, recvbuf, recvcount, recvtype, true) : no_layout;
  const std::size_t n = in_place ? sz(recvcount) * rl.size : sz(sendcount) * sl.size;
  if (at_root) a.same_bytes(n, sz(recvcount) * rl.size);
  const void* own = in_place ? block_at(recvbuf, sz(root) * sz(recvcount), rl) : nullptr;  // the root's block
  return {.bytes = n,
          .decide = n,
          .root = root,
          .send = in_place ? side{use::copy, own, sz(recvcount), &rl}
                           : side{use::read, sendbuf, sz(sendcount), &sl},
          .recv = {at_root ? use::write : use::none, recvbuf, sz(a.size) * sz(recvcount), &rl}};
}

/// MPI_Gatherv (with root) and MPI_Allgatherv: (sendbuf, sendcount, sendtype, recvbuf, recvcounts,
/// displs, recvtype[, root], comm). `fastest` decides gatherv by the process count alone, and
/// allgatherv by its counts too (their total and largest, which every rank knows alike).
template <mpi_function F, auto pmpi>
struct v_gather_call {
  static constexpr mpi_function f = F;
  const int *recvcounts, *displs;
  const void* sendbuf;
  void* recvbuf;
  int sendcount, root = 0;
  MPI_Datatype sendtype, recvtype;
  MPI_Comm comm;

  v_gather_call(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* d,
                MPI_Datatype rt, MPI_Comm c)
      : recvcounts(rc),
        displs(d),
        sendbuf(sb),
        recvbuf(rb),
        sendcount(sc),
        sendtype(st),
        recvtype(rt),
        comm(c) {}
  v_gather_call(const void* sb, int sc, MPI_Datatype st, void* rb, const int* rc, const int* d,
                MPI_Datatype rt, int r, MPI_Comm c)
      : v_gather_call(sb, sc, st, rb, rc, d, rt, c) {
    root = r;
  }
  int forward() const {
    if constexpr (F == mpi_function::gatherv)
      return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
    else
      return pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  }
  call_shape shape() const {
    return shape_of(both_ints(sendcount, root), sendtype, recvtype, in_place_bits(sendbuf, recvbuf));
  }
  const int* decision_counts() const requires(F == mpi_function::allgatherv) { return recvcounts; }
  served_plan plan(const arguments& a) const;
};
using gatherv_call = v_gather_call<mpi_function::gatherv, PMPI_Gatherv>;
using allgatherv_call = v_gather_call<mpi_function::allgatherv, PMPI_Allgatherv>;

constexpr names recv_v_names{"recvbuf", "recvcounts", "recvtype", "displs"};

template <>
served_plan gatherv_call::plan(const arguments& a) const {
  const auto [at_root, in_place] = check_root(a, root, "sendbuf", sendbuf, true);
  const layout& sl = in_place ? no_layout : checked(a, send_names, sendbuf, sendcount, sendtype, false);
  const v_blocks r =
      at_root ? checked_v(a, recv_v_names, recvbuf, recvcounts, displs, recvtype, true) : v_blocks{};
  const std::size_t n = in_place ? r.count(root) : sz(sendcount) * sl.size;
  if (at_root) a.same_bytes(n, r.count(root));
  return {.bytes = n,
          .root = root,
          .send = in_place
                      ? side{use::copy, block_at(recvbuf, sz(displs[root]), *r.l), sz(recvcounts[root]), r.l}
                      : side{use::read, sendbuf, sz(sendcount), &sl},
          .recv = {at_root ? use::update : use::none, recvbuf, r.span, r.l, recvcounts, displs}};
}

template <>
served_plan allgatherv_call::plan(const arguments& a) const {
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const v_blocks r = checked_v(a, recv_v_names, recvbuf, recvcounts, displs, recvtype, true);
  const std::size_t n = r.count(a.rank);
  const layout& sl = in_place ? no_layout : checked(a, send_names, sendbuf, sendcount, sendtype, false);
  if (!in_place) a.same_bytes(sz(sendcount) * sl.size, n);
  const void* own = in_place ? block_at(recvbuf, sz(displs[a.rank]), *r.l) : nullptr;  // this rank's block
  return {.bytes = n,
          .decide = r.total,
          .largest = r.largest,
          .send = in_place ? side{use::copy, own, sz(recvcounts[a.rank]), r.l}
                           : side{use::read, sendbuf, sz(sendcount), &sl},
          .recv = {use::update, recvbuf, r.span, r.l, recvcounts, displs}};
}

/// MPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
/// `fastest` decides it by the process count alone.
struct scatterv_call {
  static constexpr mpi_function f = mpi_function::scatterv;
  const void* sendbuf;
  const int* sendcounts;
  const int* displs;
  MPI_Datatype sendtype;
  void* recvbuf;
  int recvcount;
  MPI_Datatype recvtype;
  int root;
  MPI_Comm comm;

  int forward() const {
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  }
  call_shape shape() const {
    return shape_of(both_ints(recvcount, root), sendtype, recvtype, in_place_bits(sendbuf, recvbuf));
  }
  served_plan plan(const arguments& a) const {
    const auto [at_root, in_place] = check_root(a, root, "recvbuf", recvbuf, false);
    constexpr names send_v_names{"sendbuf", "sendcounts", "sendtype", "displs"};
    const v_blocks s =
        at_root ? checked_v(a, send_v_names, sendbuf, sendcounts, displs, sendtype, true) : v_blocks{};
    const layout& rl = in_place ? no_layout : checked(a, recv_names, recvbuf, recvcount, recvtype, true);
    const std::size_t n = in_place ? s.count(root) : sz(recvcount) * rl.size;
    if (at_root) a.same_bytes(s.count(root), n);
    return {.bytes = n,
            .root = root,
            .send = {at_root ? use::read : use::none, sendbuf, s.span, s.l, sendcounts, displs},
            // In place, the root's own block stays where it is in sendbuf.
            .recv = in_place ? side{use::discard, nullptr, sz(sendcounts[root]), s.l}
                             : side{use::write, recvbuf, sz(recvcount), &rl}};
  }
};

/// MPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
/// comm); `fastest` decides it by the process count alone. MPI_IN_PLACE (MPI 2.2): the blocks to
/// send lie where the received ones go (recvcounts, rdispls, recvtype); a copy of that span is the
/// input.
struct alltoallv_call {
  static constexpr mpi_function f = mpi_function::alltoallv;
  const void* sendbuf;
  const int *sendcounts, *sdispls;
  MPI_Datatype sendtype;
  void* recvbuf;
  const int *recvcounts, *rdispls;
  MPI_Datatype recvtype;
  MPI_Comm comm;

  int forward() const {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                          comm);
  }
  call_shape shape() const { return shape_of(sendtype, recvtype, in_place_bits(sendbuf, recvbuf)); }
  served_plan plan(const arguments& a) const {
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const v_blocks r = checked_v(a, {"recvbuf", "recvcounts", "recvtype", "rdispls"}, recvbuf, recvcounts,
                                 rdispls, recvtype, true);
    const v_blocks s = in_place ? r
                                : checked_v(a, {"sendbuf", "sendcounts", "sendtype", "sdispls"}, sendbuf,
                                            sendcounts, sdispls, sendtype, false);
    return {.bytes = s.total,
            .send = {in_place ? use::copy : use::read, in_place ? recvbuf : sendbuf, s.span, s.l, s.counts,
                     s.displs},
            .recv = {use::update, recvbuf, r.span, r.l, recvcounts, rdispls}};
  }
};

/// MPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm): the library's
/// reduce_scatterv, with rank r's block recvcounts[r] elements; `fastest` decides it by its counts
/// too (their total and largest, which every rank knows alike).
struct reduce_scatter_call {
  static constexpr mpi_function f = mpi_function::reduce_scatter;
  const void* sendbuf;
  void* recvbuf;
  const int* recvcounts;
  MPI_Datatype datatype;
  MPI_Op op;
  MPI_Comm comm;

  int forward() const { return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm); }
  call_shape shape() const { return shape_of(datatype, op, in_place_bits(sendbuf, recvbuf)); }
  const int* decision_counts() const { return recvcounts; }
  served_plan plan(const arguments& a) const {
    a.type("datatype", datatype);
    a.op(op);
    a.not_in_place("recvbuf", recvbuf);
    const bool in_place = sendbuf == MPI_IN_PLACE;
    const layout& l = a.describe(datatype);
    const v_blocks b = v_layout(a, "recvcounts", recvcounts, "", nullptr, l);
    const std::size_t total = b.span, count = sz(recvcounts[a.rank]);
    a.buffer("recvbuf", recvbuf, in_place ? span_int(total) : recvcounts[a.rank], l);
    if (!in_place) a.buffer("sendbuf", sendbuf, span_int(total), l);
    return {.bytes = b.total,
            .decide = b.total,
            .elements = total,
            .largest = b.largest,
            .send = {in_place ? use::copy : use::read, in_place ? recvbuf : sendbuf, total, &l},
            .recv = {use::write, recvbuf, count, &l, recvcounts}};
  }
};

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
  return pm::enter<pm::bcast_call>(buffer, count, datatype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                       MPI_Comm comm) {
  return pm::enter<pm::scatter_call>(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                      MPI_Comm comm) {
  return pm::enter<pm::gather_call>(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                      MPI_Op op, int root, MPI_Comm comm) {
  return pm::enter<pm::reduce_call>(sendbuf, recvbuf, count, datatype, op, root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return pm::enter<pm::allgather_call>(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return pm::enter<pm::reduce_scatter_block_call>(sendbuf, recvbuf, recvcount, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return pm::enter<pm::alltoall_call>(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                         MPI_Op op, MPI_Comm comm) {
  return pm::enter<pm::allreduce_call>(sendbuf, recvbuf, count, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Barrier(MPI_Comm comm) { return pm::enter<pm::barrier_call>(comm); }

COLLECTIVES_MPI_EXPORT int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm) {
  return pm::enter<pm::scan_call>(sendbuf, recvbuf, count, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                                      MPI_Op op, MPI_Comm comm) {
  return pm::enter<pm::exscan_call>(sendbuf, recvbuf, count, datatype, op, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void* recvbuf, const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return pm::enter<pm::gatherv_call>(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                     root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                                        MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                        MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return pm::enter<pm::scatterv_call>(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                                      root, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void* recvbuf, const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm) {
  return pm::enter<pm::allgatherv_call>(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                        comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return pm::enter<pm::alltoallv_call>(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                       recvtype, comm);
}

COLLECTIVES_MPI_EXPORT int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return pm::enter<pm::reduce_scatter_call>(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

}  // extern "C"
