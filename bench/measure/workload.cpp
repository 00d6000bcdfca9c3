// SPDX-License-Identifier: BSD-3-Clause
#include "measure/workload.hpp"

#include <algorithm>
#include <collectives/collectives.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "kit/collective.hpp"
#include "measure/metrics.hpp"
#include "measure/per_collective.hpp"
#if COLLBENCH_SMPI
#include "vendors/smpi_colls.hpp"
#endif

namespace collbench {
namespace {

namespace co = collectives;
using co::collective;
using co::detail::buffer_shape;
using co::detail::collective_descriptor;
using co::detail::counts_argument;
using co::detail::descriptor_of;
using co::detail::recv_contents;

// A workload's send or receive buffer: allocated with malloc, which an SMPI build routes through
// SimGrid's allocator, so that large buffers are shared by all simulated ranks when the launch
// asks for it (smpi/auto-shared-malloc-thresh: compare.sh --simulate, where the values do not
// matter and 1024 ranks' private buffers would not fit in memory). Elsewhere a plain array.
template <class T>
class buffer {
 public:
  buffer() = default;
  explicit buffer(std::size_t n)
      : data_(n == 0 ? nullptr : static_cast<T*>(::malloc(n * sizeof(T)))), size_(n) {  // NOLINT
    if (n > 0 && data_ == nullptr) throw std::bad_alloc();
    std::uninitialized_value_construct_n(data_.get(), n);
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  T& operator[](std::size_t i) { return data_[i]; }
  std::span<T> span() { return {data_.get(), size_}; }
  std::span<const T> span() const { return {data_.get(), size_}; }

 private:
  struct free_memory {
    void operator()(T* p) const { ::free(p); }  // NOLINT
  };
  std::unique_ptr<T[], free_memory> data_;
  std::size_t size_ = 0;
};

std::uint64_t mix(int rank, std::size_t index) {
  std::uint64_t h =
      (static_cast<std::uint64_t>(rank) + 1) * 0x9E3779B97F4A7C15ULL ^ (index + 1) * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 31;
  return h * 0x94D049BB133111EBULL ^ (h >> 29);
}

// A value from 0 to `below` − 1, as T: exact for every type.
template <class T>
T small(std::uint64_t h, std::uint64_t below) {
  return static_cast<T>(h % below);
}

// Inputs whose reduction is exact in any order and any type: small integers for sum, min, max
// and the bitwise ops, 1s and 2s for prod. Data that is only moved is unique per (rank, index)
// within the type's exact range, so a misplaced block shows.
template <class T>
T input_value(std::optional<op_kind> op, int rank, std::size_t index) {
  const std::uint64_t h = mix(rank, index);
  if (!op) {
    if constexpr (std::is_floating_point_v<T>)
      return small<T>(h, std::uint64_t{1} << std::numeric_limits<T>::digits);
    else
      return static_cast<T>(h);
  }
  switch (*op) {
    case op_kind::sum:
      return small<T>(h, 13);
    case op_kind::prod:
      return static_cast<T>(1 + h % 2);
    case op_kind::min:
    case op_kind::max:
      return small<T>(h, 101);
    default:
      return small<T>(h, 128);
  }
}

std::vector<int> as_ints(const std::vector<std::size_t>& v) { return std::vector<int>(v.begin(), v.end()); }

// Prefix sums: blocks packed in rank order.
std::vector<int> packed_displs(const std::vector<std::size_t>& counts) {
  std::vector<int> d(counts.size());
  std::size_t at = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    d[r] = static_cast<int>(at);
    at += counts[r];
  }
  return d;
}

// The MPI collectives a row calls directly: by their standard names (MPI_*, which the drop-in or
// a tool may intercept) or by their profiling names (PMPI_*, always the MPI library's own).
struct mpi_collectives {
  decltype(&PMPI_Bcast) bcast;
  decltype(&PMPI_Scatter) scatter;
  decltype(&PMPI_Gather) gather;
  decltype(&PMPI_Reduce) reduce;
  decltype(&PMPI_Allgather) allgather;
  decltype(&PMPI_Reduce_scatter_block) reduce_scatter_block;
  decltype(&PMPI_Alltoall) alltoall;
  decltype(&PMPI_Allreduce) allreduce;
  decltype(&PMPI_Barrier) barrier;
  decltype(&PMPI_Scan) scan;
  decltype(&PMPI_Exscan) exscan;
  decltype(&PMPI_Gatherv) gatherv;
  decltype(&PMPI_Scatterv) scatterv;
  decltype(&PMPI_Allgatherv) allgatherv;
  decltype(&PMPI_Alltoallv) alltoallv;
  decltype(&PMPI_Reduce_scatter) reduce_scatter;
};
const mpi_collectives standard_names{
    MPI_Bcast,    MPI_Scatter,    MPI_Gather,    MPI_Reduce,        MPI_Allgather, MPI_Reduce_scatter_block,
    MPI_Alltoall, MPI_Allreduce,  MPI_Barrier,   MPI_Scan,          MPI_Exscan,    MPI_Gatherv,
    MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Reduce_scatter};
const mpi_collectives profiling_names{PMPI_Bcast,         PMPI_Scatter,    PMPI_Gather,
                                      PMPI_Reduce,        PMPI_Allgather,  PMPI_Reduce_scatter_block,
                                      PMPI_Alltoall,      PMPI_Allreduce,  PMPI_Barrier,
                                      PMPI_Scan,          PMPI_Exscan,     PMPI_Gatherv,
                                      PMPI_Scatterv,      PMPI_Allgatherv, PMPI_Alltoallv,
                                      PMPI_Reduce_scatter};

// What one call of a row takes: a library algorithm's, through the typed API...
template <class T>
struct library_call {
  std::span<const T> send;
  std::span<T> recv;
  /// The v-variants: what this rank sends each rank (alltoallv), every rank's block (the others).
  const std::vector<std::size_t>& counts;
  const std::vector<std::size_t>& peer_counts;
  int root;
  MPI_Comm comm;
  collectives::selection alg;
};

// ...and the MPI collective's, by one of mpi_collectives' names, on the workload's communicator or
// one where the MPI library is locked to one of its internal algorithms. Sizes are bounded by
// options (at most 1 GiB), so counts fit in int; the v-variants' are as in library_call, with
// packed displacements.
template <class T>
struct mpi_call {
  const mpi_collectives& entry;
  T* send;
  T* recv;
  int n, own;
  MPI_Datatype type;
  MPI_Op op;
  int root;
  MPI_Comm comm;
  const int *counts, *displs, *peer_counts, *peer_displs;
};

template <class T, class Op>
struct call_row {
  collective coll;
  void (*library)(const library_call<T>&);
  void (*mpi)(const mpi_call<T>&);
};

// Row i calls collective i.
// clang-format off
template <class T, class Op>
constexpr per_collective<call_row<T, Op>> calls{{
    {collective::broadcast,
     [](const auto& c) { co::broadcast(c.recv, c.root, c.comm, c.alg); },
     [](const auto& m) { m.entry.bcast(m.recv, m.n, m.type, m.root, m.comm); }},
    {collective::scatter,
     [](const auto& c) { co::scatter(c.send, c.recv, c.root, c.comm, c.alg); },
     [](const auto& m) { m.entry.scatter(m.send, m.n, m.type, m.recv, m.n, m.type, m.root, m.comm); }},
    {collective::gather,
     [](const auto& c) { co::gather(c.send, c.recv, c.root, c.comm, c.alg); },
     [](const auto& m) { m.entry.gather(m.send, m.n, m.type, m.recv, m.n, m.type, m.root, m.comm); }},
    {collective::reduce,
     [](const auto& c) { co::reduce(c.send, c.recv, Op{}, c.root, c.comm, c.alg); },
     [](const auto& m) { m.entry.reduce(m.send, m.recv, m.n, m.type, m.op, m.root, m.comm); }},
    {collective::allgather,
     [](const auto& c) { co::allgather(c.send, c.recv, c.comm, c.alg); },
     [](const auto& m) { m.entry.allgather(m.send, m.n, m.type, m.recv, m.n, m.type, m.comm); }},
    {collective::reduce_scatter,
     [](const auto& c) { co::reduce_scatter(c.send, c.recv, Op{}, c.comm, c.alg); },
     [](const auto& m) { m.entry.reduce_scatter_block(m.send, m.recv, m.n, m.type, m.op, m.comm); }},
    {collective::alltoall,
     [](const auto& c) { co::alltoall(c.send, c.recv, c.comm, c.alg); },
     [](const auto& m) { m.entry.alltoall(m.send, m.n, m.type, m.recv, m.n, m.type, m.comm); }},
    {collective::allreduce,
     [](const auto& c) { co::allreduce(c.send, c.recv, Op{}, c.comm, c.alg); },
     [](const auto& m) { m.entry.allreduce(m.send, m.recv, m.n, m.type, m.op, m.comm); }},
    {collective::barrier,
     [](const auto& c) { co::barrier(c.comm, c.alg); },
     [](const auto& m) { m.entry.barrier(m.comm); }},
    {collective::scan,
     [](const auto& c) { co::scan(c.send, c.recv, Op{}, c.comm, c.alg); },
     [](const auto& m) { m.entry.scan(m.send, m.recv, m.n, m.type, m.op, m.comm); }},
    {collective::exscan,
     [](const auto& c) { co::exscan(c.send, c.recv, Op{}, c.comm, c.alg); },
     [](const auto& m) { m.entry.exscan(m.send, m.recv, m.n, m.type, m.op, m.comm); }},
    {collective::gatherv,
     [](const auto& c) { co::gatherv(c.send, c.recv, c.peer_counts, c.root, c.comm, c.alg); },
     [](const auto& m) {
       m.entry.gatherv(m.send, m.own, m.type, m.recv, m.peer_counts, m.peer_displs, m.type, m.root, m.comm);
     }},
    {collective::scatterv,
     [](const auto& c) { co::scatterv(c.send, c.peer_counts, c.recv, c.root, c.comm, c.alg); },
     [](const auto& m) {
       m.entry.scatterv(m.send, m.peer_counts, m.peer_displs, m.type, m.recv, m.own, m.type, m.root, m.comm);
     }},
    {collective::allgatherv,
     [](const auto& c) { co::allgatherv(c.send, c.recv, c.peer_counts, c.comm, c.alg); },
     [](const auto& m) {
       m.entry.allgatherv(m.send, m.own, m.type, m.recv, m.peer_counts, m.peer_displs, m.type, m.comm);
     }},
    {collective::alltoallv,
     [](const auto& c) { co::alltoallv(c.send, c.counts, c.recv, c.peer_counts, c.comm, c.alg); },
     [](const auto& m) {
       m.entry.alltoallv(m.send, m.counts, m.displs, m.type, m.recv, m.peer_counts, m.peer_displs, m.type,
                         m.comm);
     }},
    {collective::reduce_scatterv,
     [](const auto& c) { co::reduce_scatterv(c.send, c.recv, c.peer_counts, Op{}, c.comm, c.alg); },
     [](const auto& m) { m.entry.reduce_scatter(m.send, m.recv, m.peer_counts, m.type, m.op, m.comm); }},
}};
// clang-format on

template <class T, class Op>
class typed_workload final : public workload {
 public:
  typed_workload(collective c, element_kind type, op_kind op, int root, MPI_Comm comm, double skew)
      : c_(c), type_(type), op_(op), root_(root), comm_(comm), skew_(skew) {
    MPI_Comm_rank(comm, &rank_);
    MPI_Comm_size(comm, &size_);
  }

  void resize(std::size_t n) override {
    n_ = n;
    const std::size_t p = static_cast<std::size_t>(size_);
    const collective_descriptor& d = descriptor_of(c_);
    // The v-variants: n is the average block; the blocks of all p ranks sum to p·n (v_counts).
    // peer_counts_[r] is rank r's block, what this rank receives from r in alltoallv, where rank
    // i sends counts[i] elements to every rank (its send array p·counts[i] elements).
    peer_counts_ = v_counts(p * n, size_, skew_);
    const std::size_t own = peer_counts_[static_cast<std::size_t>(rank_)];
    counts_ = co::detail::counts_per_pair(d) ? std::vector<std::size_t>(p, own) : peer_counts_;
    peer_ints_ = as_ints(peer_counts_), peer_displs_ = packed_displs(peer_counts_);
    out_ints_ = as_ints(counts_), out_displs_ = packed_displs(counts_);
    own_int_ = static_cast<int>(own);
    // The buffers' extents on this rank, as the library's validation and its recorder take them.
    const auto elements = [&](const buffer_shape& b) {
      const std::vector<std::size_t>& laid_out =
          b.laid_out_by == counts_argument::send_counts ? counts_ : peer_counts_;
      const std::size_t total = std::accumulate(laid_out.begin(), laid_out.end(), std::size_t{0});
      return co::detail::elements_in(b.on(rank_ == root_), p, n, own, total);
    };
    // Fresh buffers (not resized) so memory of a larger earlier size is returned.
    send_ = buffer<T>(elements(d.send));
    recv_ = buffer<T>(elements(d.recv));
  }

  void fill(std::span<const std::byte> reference) override {
    const std::optional<op_kind> op = reduces(c_) ? std::optional(op_) : std::nullopt;
    for (std::size_t i = 0; i < send_.size(); ++i) send_[i] = input_value<T>(op, rank_, i);
    // A fixed marker alone would equal about 1/256 of the int8 values that are only moved, and
    // an element left unwritten there would pass the check.
    const std::span<std::byte> out = result();
    if (reference.size() == out.size())
      std::transform(reference.begin(), reference.end(), out.begin(), [](std::byte b) { return ~b; });
    else
      std::memset(out.data(), 0xA5, out.size());
    if (descriptor_of(c_).recv_is_input_at_root && rank_ == root_)
      for (std::size_t i = 0; i < recv_.size(); ++i) recv_[i] = input_value<T>(std::nullopt, root_, i);
  }

  void run(const variant& v) override {
    static_assert(in_collective_order(calls<T, Op>), "calls: row i calls collective i");
    const call_row<T, Op>& row = row_of(calls<T, Op>, c_);
    if (v.alg != collectives::algorithm::vendor) {
      row.library({std::as_const(send_).span(), recv_.span(), counts_, peer_counts_, root_, comm_, v.alg});
      return;
    }
    const mpi_collectives& entry = v.profiling_name ? profiling_names : standard_names;
    const MPI_Comm comm = v.forced_comm == MPI_COMM_NULL ? comm_ : v.forced_comm;
    row.mpi({entry, send_.data(), recv_.data(), static_cast<int>(n_), own_int_, mpi_datatype(type_),
             mpi_op(op_), root_, comm, out_ints_.data(), out_displs_.data(), peer_ints_.data(),
             peer_displs_.data()});
  }

  void select_smpi_choice([[maybe_unused]] const variant& v) override {
#if COLLBENCH_SMPI
    if (v.smpi_choice.empty()) return;
    MPI_Barrier(comm_);
    smpi::select(c_, smpi::algorithm_for_call(c_, v.smpi_choice, size_, n_, sizeof(T)));
#endif
  }

  void release_smpi_choice([[maybe_unused]] const variant& v) override {
#if COLLBENCH_SMPI
    if (v.smpi_choice.empty()) return;
    MPI_Barrier(comm_);
    smpi::select(c_, v.smpi_restore);
#endif
  }

  // exscan defines no result on rank 0 (MPI leaves it undefined, the library leaves it untouched).
  std::span<std::byte> result() override {
    if (descriptor_of(c_).result == recv_contents::exclusive_prefix && rank_ == 0) return {};
    return std::as_writable_bytes(recv_.span());
  }
  std::size_t element_size() const override { return sizeof(T); }

 private:
  collective c_;
  element_kind type_;
  op_kind op_;
  int root_;
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::size_t n_ = 0;
  double skew_;
  /// The v-variants: peer_counts_[r] is rank r's block (what this rank receives from r in
  /// alltoallv); counts_ what this rank sends each rank (alltoallv; else equal to peer_counts_).
  std::vector<std::size_t> counts_, peer_counts_;
  /// The same as MPI takes them (int counts, packed displacements), made once per size so that
  /// the MPI rows allocate nothing per call; own_int_ is this rank's block.
  std::vector<int> peer_ints_, peer_displs_, out_ints_, out_displs_;
  int own_int_ = 0;
  buffer<T> send_, recv_;
};

}  // namespace

std::unique_ptr<workload> make_workload(collective c, element_kind type, op_kind op, int root, MPI_Comm comm,
                                        double skew) {
  // The op only matters to the reducing collectives: the others get one instantiation per type.
  const op_kind used = reduces(c) ? op : op_kind::sum;
  return with_type(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return with_op(used, [&](auto functor) -> std::unique_ptr<workload> {
      using Op = decltype(functor);
      if constexpr (std::is_invocable_v<const Op&, const T&, const T&>)
        return std::make_unique<typed_workload<T, Op>>(c, type, used, root, comm, skew);
      else
        throw std::invalid_argument("collbench: the op does not apply to the type");
    });
  });
}

}  // namespace collbench
