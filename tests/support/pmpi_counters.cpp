// SPDX-License-Identifier: BSD-3-Clause
// The MPI profiling interface at work: every data-moving MPI function (and MPI_Comm_dup) is
// defined here with Open MPI 4.1's exact mpi.h signature, counts its call and forwards to its
// PMPI_ twin. A signature that drifted from mpi.h fails to compile (conflicting C declaration).
// With an MPI-4 library (MPICH 4) the large-count (_c) point-to-point twins and MPI_Isendrecv are
// counted too. Not covered: MPI-IO (moves data to files, not between ranks), and the large-count
// and persistent (_init) collectives and one-sided calls of MPI-4.

#include "support/pmpi_counters.hpp"

#include <mpi.h>

namespace pmpi_counters {
namespace {

std::map<std::string_view, long>& table() {
  static std::map<std::string_view, long> counts;
  return counts;
}

std::vector<p2p_call>& sequence() {
  static std::vector<p2p_call> calls;
  return calls;
}

void record(std::string_view name) { ++table()[name]; }

void record_p2p(std::string_view name, int peer) {
  record(name);
  sequence().push_back({name, peer});
}

}  // namespace

void reset() {
  table().clear();
  sequence().clear();
}

const std::map<std::string_view, long>& calls() { return table(); }

const std::vector<p2p_call>& p2p_sequence() { return sequence(); }

}  // namespace pmpi_counters

#define COUNTED(name, params, args)      \
  extern "C" int MPI_##name params {     \
    pmpi_counters::record("MPI_" #name); \
    return PMPI_##name args;             \
  }
// The blocking sends and receive the library uses, also logged in order with their peer.
#define LOGGED(name, params, args, peer)           \
  extern "C" int MPI_##name params {               \
    pmpi_counters::record_p2p("MPI_" #name, peer); \
    return PMPI_##name args;                       \
  }

// Point to point: blocking, nonblocking, persistent, matched, combined.
LOGGED(Send, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
       (buf, count, datatype, dest, tag, comm), dest)
LOGGED(Ssend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
       (buf, count, datatype, dest, tag, comm), dest)
COUNTED(Bsend, (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
        (buf, count, datatype, dest, tag, comm))
COUNTED(Rsend, (const void* ibuf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm),
        (ibuf, count, datatype, dest, tag, comm))
COUNTED(Isend,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Issend,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Ibsend,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Irsend,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Send_init,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Ssend_init,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Bsend_init,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
COUNTED(Rsend_init,
        (const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, dest, tag, comm, request))
LOGGED(Recv,
       (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status),
       (buf, count, datatype, source, tag, comm, status), source)
COUNTED(Irecv,
        (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, source, tag, comm, request))
COUNTED(Recv_init,
        (void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, source, tag, comm, request))
COUNTED(Mrecv, (void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status),
        (buf, count, type, message, status))
COUNTED(Imrecv, (void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request),
        (buf, count, type, message, request))
COUNTED(Sendrecv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
         int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status),
        (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm,
         status))
COUNTED(Sendrecv_replace,
        (void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
         MPI_Comm comm, MPI_Status* status),
        (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))
#if MPI_VERSION >= 4
// MPI-4 (MPICH 4): the nonblocking combined calls, and the large-count (_c) twins of the point to
// point calls, which would otherwise move data uncounted.
COUNTED(Isendrecv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
         int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, request))
COUNTED(Isendrecv_replace,
        (void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
         MPI_Comm comm, MPI_Request* request),
        (buf, count, datatype, dest, sendtag, source, recvtag, comm, request))
#define COUNTED_SEND_C(name)                                                                             \
  COUNTED(name, (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), \
          (buf, count, datatype, dest, tag, comm))
#define COUNTED_ISEND_C(name)                                                                    \
  COUNTED(name,                                                                                  \
          (const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, \
           MPI_Request* request),                                                                \
          (buf, count, datatype, dest, tag, comm, request))
COUNTED_SEND_C(Send_c)
COUNTED_SEND_C(Ssend_c)
COUNTED_SEND_C(Bsend_c)
COUNTED_SEND_C(Rsend_c)
COUNTED_ISEND_C(Isend_c)
COUNTED_ISEND_C(Issend_c)
COUNTED_ISEND_C(Ibsend_c)
COUNTED_ISEND_C(Irsend_c)
COUNTED_ISEND_C(Send_init_c)
COUNTED_ISEND_C(Ssend_init_c)
COUNTED_ISEND_C(Bsend_init_c)
COUNTED_ISEND_C(Rsend_init_c)
COUNTED(Recv_c,
        (void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status),
        (buf, count, datatype, source, tag, comm, status))
COUNTED(Irecv_c,
        (void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, source, tag, comm, request))
COUNTED(Recv_init_c,
        (void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
         MPI_Request* request),
        (buf, count, datatype, source, tag, comm, request))
COUNTED(Mrecv_c, (void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status),
        (buf, count, datatype, message, status))
COUNTED(Imrecv_c,
        (void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request),
        (buf, count, datatype, message, request))
COUNTED(Sendrecv_c,
        (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
         MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status),
        (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status))
COUNTED(Sendrecv_replace_c,
        (void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
         MPI_Comm comm, MPI_Status* status),
        (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))
COUNTED(Isendrecv_c,
        (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
         MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, request))
COUNTED(Isendrecv_replace_c,
        (void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
         MPI_Comm comm, MPI_Request* request),
        (buf, count, datatype, dest, sendtag, source, recvtag, comm, request))
#endif
COUNTED(Start, (MPI_Request * request), (request))
COUNTED(Startall, (int count, MPI_Request array_of_requests[]), (count, array_of_requests))

// Blocking collectives.
COUNTED(Bcast, (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm),
        (buffer, count, datatype, root, comm))
COUNTED(Reduce,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
         MPI_Comm comm),
        (sendbuf, recvbuf, count, datatype, op, root, comm))
COUNTED(Allreduce,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
        (sendbuf, recvbuf, count, datatype, op, comm))
COUNTED(Gather,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, int root, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
COUNTED(Gatherv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
         const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))
COUNTED(Scatter,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, int root, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
COUNTED(Scatterv,
        (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
         void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
        (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))
COUNTED(Allgather,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
COUNTED(Allgatherv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
         const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
COUNTED(Alltoall,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
COUNTED(Alltoallv,
        (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
COUNTED(Alltoallw,
        (const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
         void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
         MPI_Comm comm),
        (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
COUNTED(Reduce_scatter,
        (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm),
        (sendbuf, recvbuf, recvcounts, datatype, op, comm))
COUNTED(Reduce_scatter_block,
        (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
        (sendbuf, recvbuf, recvcount, datatype, op, comm))
COUNTED(Barrier, (MPI_Comm comm), (comm))
COUNTED(Scan,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
        (sendbuf, recvbuf, count, datatype, op, comm))
COUNTED(Exscan,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
        (sendbuf, recvbuf, count, datatype, op, comm))

// Nonblocking collectives.
COUNTED(Ibcast,
        (void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request),
        (buffer, count, datatype, root, comm, request))
COUNTED(Ireduce,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
         MPI_Comm comm, MPI_Request* request),
        (sendbuf, recvbuf, count, datatype, op, root, comm, request))
COUNTED(Iallreduce,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
         MPI_Request* request),
        (sendbuf, recvbuf, count, datatype, op, comm, request))
COUNTED(Igather,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
COUNTED(Igatherv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
         const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request))
COUNTED(Iscatter,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
COUNTED(Iscatterv,
        (const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
         void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
COUNTED(Iallgather,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
COUNTED(Iallgatherv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
         const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
COUNTED(Ialltoall,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
COUNTED(Ialltoallv,
        (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
         MPI_Request* request),
        (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
COUNTED(Ialltoallw,
        (const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
         void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
         MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))
COUNTED(Ireduce_scatter,
        (const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm, MPI_Request* request),
        (sendbuf, recvbuf, recvcounts, datatype, op, comm, request))
COUNTED(Ireduce_scatter_block,
        (const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
         MPI_Request* request),
        (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
COUNTED(Ibarrier, (MPI_Comm comm, MPI_Request* request), (comm, request))
COUNTED(Iscan,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
         MPI_Request* request),
        (sendbuf, recvbuf, count, datatype, op, comm, request))
COUNTED(Iexscan,
        (const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
         MPI_Request* request),
        (sendbuf, recvbuf, count, datatype, op, comm, request))

// Neighbourhood collectives.
COUNTED(Neighbor_allgather,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
COUNTED(Neighbor_allgatherv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
         const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
COUNTED(Neighbor_alltoall,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
COUNTED(Neighbor_alltoallv,
        (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
        (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
COUNTED(Neighbor_alltoallw,
        (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
         const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
         const MPI_Datatype recvtypes[], MPI_Comm comm),
        (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
COUNTED(Ineighbor_allgather,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
COUNTED(Ineighbor_allgatherv,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
         const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
COUNTED(Ineighbor_alltoall,
        (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
COUNTED(Ineighbor_alltoallv,
        (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
         MPI_Request* request),
        (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
COUNTED(Ineighbor_alltoallw,
        (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
         const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request),
        (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))

// One-sided communication.
COUNTED(Put,
        (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win),
        (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
         win))
COUNTED(Get,
        (void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win),
        (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
         win))
COUNTED(Accumulate,
        (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
        (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
         op, win))
COUNTED(Get_accumulate,
        (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win),
        (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank,
         target_disp, target_count, target_datatype, op, win))
COUNTED(Fetch_and_op,
        (const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
         MPI_Aint target_disp, MPI_Op op, MPI_Win win),
        (origin_addr, result_addr, datatype, target_rank, target_disp, op, win))
COUNTED(Compare_and_swap,
        (const void* origin_addr, const void* compare_addr, void* result_addr, MPI_Datatype datatype,
         int target_rank, MPI_Aint target_disp, MPI_Win win),
        (origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win))
COUNTED(Rput,
        (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
         MPI_Aint target_disp, int target_cout, MPI_Datatype target_datatype, MPI_Win win,
         MPI_Request* request),
        (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_cout, target_datatype,
         win, request))
COUNTED(Rget,
        (void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
         MPI_Request* request),
        (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
         win, request))
COUNTED(Raccumulate,
        (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
         MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
         MPI_Request* request),
        (origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count, target_datatype,
         op, win, request))
COUNTED(Rget_accumulate,
        (const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request),
        (origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, target_rank,
         target_disp, target_count, target_datatype, op, win, request))

// Collective communicator creation: it communicates, and the library must do it only once per
// user communicator (the private duplicate is cached).
COUNTED(Comm_dup, (MPI_Comm comm, MPI_Comm* newcomm), (comm, newcomm))
