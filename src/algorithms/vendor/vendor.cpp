// <collective>_vendor — the MPI library's own collective (MPI_Bcast, MPI_Scatter, MPI_Gather,
// MPI_Reduce, MPI_Allgather, MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Allreduce, MPI_Barrier,
// MPI_Scan, MPI_Exscan), one function per collective: the baseline of the benchmark and the
// reference of the tests.
//
// Steps:   whatever the MPI library decides (Open MPI's coll/tuned picks by p and size), on the
//          library's private communicator, with the matching MPI_Datatype (a contiguous byte
//          type for user types) and MPI_Op (MPI's predefined op where MPI defines it for the
//          type, otherwise MPI_Op_create around the reduction's block function).
// Cost:    the MPI library's; collbench measures it as the `vendor` row.
// Order:   MPI applies every op in rank order, so non-commutative ops are correct.
// Limits:  MPI counts are int: validation refuses a block of more than INT_MAX elements.
// Memory:  the MPI library's; exscan adds an n-element block on rank 0 (see there).
// Ref:     MPI 4.0 standard, chapter 6 (collective communication).
//
// With the transport, the only code that moves data through MPI.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/alltoall/alltoall.hpp"
#include "algorithms/barrier/barrier.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/exscan/exscan.hpp"
#include "algorithms/gather/gather.hpp"
#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/scan/scan.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "core/scratch.hpp"
#include "ops/mpi_types.hpp"

namespace collectives::detail {
namespace {

int mpi_count(std::size_t count) { return static_cast<int>(count); }

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
