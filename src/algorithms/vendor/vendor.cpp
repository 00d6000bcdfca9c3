// SPDX-License-Identifier: BSD-3-Clause
// <collective>_vendor — the MPI library's own collective (MPI_Bcast, MPI_Scatter, MPI_Gather,
// MPI_Reduce, MPI_Allgather, MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Allreduce, MPI_Barrier,
// MPI_Scan, MPI_Exscan, MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv,
// MPI_Reduce_scatter), one function per collective: the baseline of the benchmark and the
// reference of the tests.
//
// Steps:   whatever the MPI library decides (Open MPI's coll/tuned picks by p and size), on the
//          library's private communicator, with the matching MPI_Datatype (a contiguous byte
//          type for user types) and MPI_Op (MPI's predefined op where MPI defines it for the
//          type, otherwise MPI_Op_create around the reduction's block function).
// Cost:    the MPI library's; collbench measures it as the `vendor` row.
// Order:   MPI applies every op in rank order, so non-commutative ops are correct.
// Limits:  MPI counts are int: validation refuses a block of more than INT_MAX elements, and for
//          the v-variants any count or displacement above INT_MAX.
// Memory:  the MPI library's; exscan adds an n-element block on rank 0 (see there).
// Ref:     MPI 4.0 standard, chapter 6 (collective communication).
//
// With the transport, the only code that moves data through MPI.

#include <vector>

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allgatherv/allgatherv.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/alltoall/alltoall.hpp"
#include "algorithms/alltoallv/alltoallv.hpp"
#include "algorithms/barrier/barrier.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/exscan/exscan.hpp"
#include "algorithms/gather/gather.hpp"
#include "algorithms/gatherv/gatherv.hpp"
#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "algorithms/scan/scan.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "algorithms/scatterv/scatterv.hpp"
#include "kit/scratch.hpp"
#include "ops/mpi_types.hpp"

namespace collectives::detail {
namespace {

int mpi_count(std::size_t count) { return static_cast<int>(count); }

// A v-variant's counts and displacements as MPI's int arrays (validation checked they fit);
// empty where the rank has no layout (the root-only arguments elsewhere).
struct mpi_layout {
  std::vector<int> counts, displs;
  explicit mpi_layout(const block_layout* l) {
    if (l == nullptr) return;
    for (std::size_t c : l->counts) counts.push_back(mpi_count(c));
    for (std::size_t d : l->displs) displs.push_back(mpi_count(d));
  }
};

}  // namespace

void broadcast_vendor(const call& c) {
  check_mpi(MPI_Bcast(c.recv, mpi_count(c.count), mpi_datatype(c.elem), c.root, c.net.comm()), "MPI_Bcast");
}

void scatter_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  check_mpi(
      MPI_Scatter(c.send, mpi_count(c.count), type, c.recv, mpi_count(c.count), type, c.root, c.net.comm()),
      "MPI_Scatter");
}

void gather_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  check_mpi(
      MPI_Gather(c.send, mpi_count(c.count), type, c.recv, mpi_count(c.count), type, c.root, c.net.comm()),
      "MPI_Gather");
}

void reduce_vendor(const call& c) {
  const mpi_op op(*c.op, c.elem);
  check_mpi(
      MPI_Reduce(c.send, c.recv, mpi_count(c.count), mpi_datatype(c.elem), op.get(), c.root, c.net.comm()),
      "MPI_Reduce");
}

void allgather_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  check_mpi(MPI_Allgather(c.send, mpi_count(c.count), type, c.recv, mpi_count(c.count), type, c.net.comm()),
            "MPI_Allgather");
}

void reduce_scatter_vendor(const call& c) {
  const mpi_op op(*c.op, c.elem);
  check_mpi(MPI_Reduce_scatter_block(c.send, c.recv, mpi_count(c.count), mpi_datatype(c.elem), op.get(),
                                     c.net.comm()),
            "MPI_Reduce_scatter_block");
}

void alltoall_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  check_mpi(MPI_Alltoall(c.send, mpi_count(c.count), type, c.recv, mpi_count(c.count), type, c.net.comm()),
            "MPI_Alltoall");
}

void gatherv_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  const mpi_layout in(c.recv_blocks);
  check_mpi(MPI_Gatherv(c.send, mpi_count(c.count), type, c.recv, in.counts.data(), in.displs.data(), type,
                        c.root, c.net.comm()),
            "MPI_Gatherv");
}

void scatterv_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  const mpi_layout out(c.send_blocks);
  check_mpi(MPI_Scatterv(c.send, out.counts.data(), out.displs.data(), type, c.recv, mpi_count(c.count), type,
                         c.root, c.net.comm()),
            "MPI_Scatterv");
}

void allgatherv_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  mpi_layout in(c.recv_blocks);
  std::byte* recv = c.recv;
  // MPICH 4.0 ignores the displacement on a one-process communicator (it copies the block to the
  // start of recv, over what must stay untouched): the same call with the block's own address
  // and displacement 0, which MPI defines to be equivalent.
  if (c.net.size() == 1 && !in.displs.empty()) {
    recv += static_cast<std::size_t>(in.displs[0]) * c.elem.size;
    in.displs[0] = 0;
  }
  check_mpi(MPI_Allgatherv(c.send, mpi_count(c.count), type, recv, in.counts.data(), in.displs.data(), type,
                           c.net.comm()),
            "MPI_Allgatherv");
}

void alltoallv_vendor(const call& c) {
  const MPI_Datatype type = mpi_datatype(c.elem);
  const mpi_layout out(c.send_blocks), in(c.recv_blocks);
  check_mpi(MPI_Alltoallv(c.send, out.counts.data(), out.displs.data(), type, c.recv, in.counts.data(),
                          in.displs.data(), type, c.net.comm()),
            "MPI_Alltoallv");
}

void reduce_scatterv_vendor(const call& c) {
  const mpi_op op(*c.op, c.elem);
  const mpi_layout in(c.recv_blocks);
  check_mpi(
      MPI_Reduce_scatter(c.send, c.recv, in.counts.data(), mpi_datatype(c.elem), op.get(), c.net.comm()),
      "MPI_Reduce_scatter");
}

void allreduce_vendor(const call& c) {
  const mpi_op op(*c.op, c.elem);
  const void* send = c.send == c.recv ? MPI_IN_PLACE : c.send;
  check_mpi(MPI_Allreduce(send, c.recv, mpi_count(c.count), mpi_datatype(c.elem), op.get(), c.net.comm()),
            "MPI_Allreduce");
}

void barrier_vendor(const call& c) { check_mpi(MPI_Barrier(c.net.comm()), "MPI_Barrier"); }

void scan_vendor(const call& c) {
  const mpi_op op(*c.op, c.elem);
  const void* send = c.send == c.recv ? MPI_IN_PLACE : c.send;
  check_mpi(MPI_Scan(send, c.recv, mpi_count(c.count), mpi_datatype(c.elem), op.get(), c.net.comm()),
            "MPI_Scan");
}

void exscan_vendor(const call& c) {
  const mpi_op op(*c.op, c.elem);
  // MPI leaves rank 0's recvbuf undefined, and an MPI library may write there; the library's
  // contract leaves it untouched, so rank 0 hands MPI a scratch block instead (and its input from
  // send, which in place is the user's buffer itself).
  scratch rank0_recv = c.rank() == 0 ? make_scratch(c.bytes(c.count)) : nullptr;
  const void* send = c.send == c.recv && c.rank() != 0 ? MPI_IN_PLACE : c.send;
  void* recv = c.rank() == 0 ? static_cast<void*>(rank0_recv.get()) : c.recv;
  check_mpi(MPI_Exscan(send, recv, mpi_count(c.count), mpi_datatype(c.elem), op.get(), c.net.comm()),
            "MPI_Exscan");
}

}  // namespace collectives::detail
