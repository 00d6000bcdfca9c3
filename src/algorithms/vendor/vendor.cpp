// The vendor variant: the MPI library's own collectives, called on the library's private
// communicator with the matching MPI_Datatype and MPI_Op. It is the baseline of the benchmark
// and the reference of the tests, and the only code besides the transport that moves data
// through MPI. MPI counts are int: a validated call never gets here with more than INT_MAX
// elements in one block.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/alltoall/alltoall.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/gather/gather.hpp"
#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/scatter/scatter.hpp"
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

}  // namespace collectives::detail
