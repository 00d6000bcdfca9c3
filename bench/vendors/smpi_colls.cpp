// SPDX-License-Identifier: BSD-3-Clause
#include "vendors/smpi_colls.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <xbt/config.hpp>

#include "vendors/ompi41.hpp"

// Declared by SimGrid 3.32's src/smpi/include/smpi_coll.hpp, which it does not install; the
// functions are exported by libsimgrid.so.
namespace simgrid::smpi {
struct s_mpi_coll_description_t {
  std::string name;
  std::string description;
  void* coll;
};
namespace colls {
std::vector<s_mpi_coll_description_t>* get_smpi_coll_descriptions(const std::string& name);
void set_gather(const std::string& name);
void set_allgather(const std::string& name);
void set_allgatherv(const std::string& name);
void set_reduce(const std::string& name);
void set_allreduce(const std::string& name);
void set_reduce_scatter(const std::string& name);
void set_scatter(const std::string& name);
void set_barrier(const std::string& name);
void set_bcast(const std::string& name);
void set_alltoall(const std::string& name);
void set_alltoallv(const std::string& name);
}  // namespace colls
}  // namespace simgrid::smpi

namespace collbench::smpi {

using collectives::collective;
namespace colls = simgrid::smpi::colls;

namespace {

// The collectives whose algorithm SMPI lets one choose: its name for each, and the function that
// chooses. scan, exscan, gatherv and scatterv have none.
struct choosable {
  collective coll;
  std::string_view name;
  void (*set)(const std::string&);
};
constexpr choosable choosables[] = {
    {collective::broadcast, "bcast", &colls::set_bcast},
    {collective::scatter, "scatter", &colls::set_scatter},
    {collective::gather, "gather", &colls::set_gather},
    {collective::reduce, "reduce", &colls::set_reduce},
    {collective::allgather, "allgather", &colls::set_allgather},
    {collective::allgatherv, "allgatherv", &colls::set_allgatherv},
    {collective::reduce_scatter, "reduce_scatter", &colls::set_reduce_scatter},   // MPI_Reduce_scatter_block
    {collective::reduce_scatterv, "reduce_scatter", &colls::set_reduce_scatter},  // MPI_Reduce_scatter
    {collective::alltoall, "alltoall", &colls::set_alltoall},
    {collective::alltoallv, "alltoallv", &colls::set_alltoallv},
    {collective::allreduce, "allreduce", &colls::set_allreduce},
    {collective::barrier, "barrier", &colls::set_barrier},
};

// collbench's own name for Open MPI 4.1's decision (ompi41.hpp).
constexpr std::string_view ompi41 = "ompi41";

bool always(int) { return true; }
bool two(int p) { return p == 2; }
bool not_two(int p) { return p != 2; }
bool three(int p) { return p == 3; }
bool more_than_two(int p) { return p > 2; }
bool not_power_of_two(int p) { return !std::has_single_bit(static_cast<unsigned>(p)); }
bool prime_above_three(int p) {
  if (p <= 3) return false;
  for (int d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

// SimGrid 3.32's algorithms that fail as collbench calls them, and where.
struct broken {
  collective coll;
  std::string_view name;
  bool (*at)(int p);
  std::string_view what;
};
constexpr std::string_view crashes = "crashes (segmentation fault)";
constexpr std::string_view mixes = "receives another call's messages (mismatched datatypes)";
constexpr std::string_view wrong = "returns wrong results";
constexpr std::string_view refuses = "refuses a process count that is not a power of two";
constexpr broken broken_algorithms[] = {
    {collective::broadcast, "arrival_scatter", &always, crashes},
    {collective::broadcast, "SMP_linear", &always, mixes},
    {collective::broadcast, "ompi_split_bintree", &always, mixes},
    {collective::broadcast, "impi", &always, "truncates a receive at several process counts (2, 5–8)"},
    {collective::reduce, "NTSL", &always, crashes},
    {collective::reduce, "arrival_pattern_aware", &always, crashes},
    {collective::reduce, "scatter_gather", &not_power_of_two, "truncates a receive where p is not a power of two"},
    {collective::allreduce, "smp_rsag", &more_than_two, wrong},
    {collective::allreduce, "smp_rsag_lr", &more_than_two, wrong},
    {collective::allreduce, "smp_rsag_rab", &always, wrong},
    {collective::allreduce, "rab1", &not_power_of_two, refuses},
    {collective::allgather, "pair", &not_power_of_two, refuses},
    {collective::allgather, "rhv", &not_power_of_two, refuses},
    {collective::allgather, "2dmesh", &prime_above_three, "refuses a prime process count"},
    {collective::allgather, "3dmesh", &two, "refuses 2 processes"},
    {collective::allgatherv, "pair", &not_power_of_two, refuses},
    {collective::alltoall, "pair", &not_power_of_two, refuses},
    {collective::alltoall, "pair_light_barrier", &not_power_of_two, refuses},
    {collective::alltoall, "pair_mpi_barrier", &not_power_of_two, refuses},
    {collective::alltoall, "pair_one_barrier", &not_power_of_two, refuses},
    {collective::alltoall, "pair_rma", &always, wrong},
    {collective::alltoall, "2dmesh", &prime_above_three, "refuses a prime process count"},
    {collective::alltoall, "3dmesh", &two, crashes},
    {collective::alltoallv, "pair", &not_power_of_two, refuses},
    {collective::alltoallv, "pair_light_barrier", &not_power_of_two, refuses},
    {collective::alltoallv, "pair_mpi_barrier", &not_power_of_two, refuses},
    {collective::alltoallv, "pair_one_barrier", &not_power_of_two, refuses},
    {collective::alltoallv, "ompi", &three, "chooses its pair algorithm, which refuses 3 processes"},
    {collective::barrier, "ompi_two_procs", &not_two, "never ends (it is for two processes)"},
    {collective::reduce_scatter, "mpich_noncomm", &not_power_of_two, refuses},
    {collective::reduce_scatterv, "mpich_noncomm", &not_power_of_two, refuses},
};

const choosable* find(collective c) {
  for (const choosable& x : choosables)
    if (x.coll == c) return &x;
  return nullptr;
}

}  // namespace

std::string_view collective_name(collective c) {
  const choosable* x = find(c);
  return x ? x->name : std::string_view{};
}

std::vector<std::string> algorithms(collective c) {
  const std::string_view name = collective_name(c);
  if (name.empty()) return {};
  std::vector<std::string> selectors, single;
  for (const auto& d : *colls::get_smpi_coll_descriptions(std::string(name))) {
    if (d.name == "default" || d.name == "automatic") continue;
    const bool selector = d.name == "ompi" || d.name == "mpich" || d.name == "mvapich2" || d.name == "impi";
    (selector ? selectors : single).push_back(d.name);
  }
  // The selectors in a fixed order, whatever SimGrid's table says.
  std::vector<std::string> out;
  for (const char* s : {"ompi", "mpich", "mvapich2", "impi"})
    if (std::find(selectors.begin(), selectors.end(), s) != selectors.end()) out.emplace_back(s);
  if (ompi41_decision(c, 2, 1, 1)) out.emplace_back(ompi41);
  out.insert(out.end(), single.begin(), single.end());
  return out;
}

std::string unusable(collective c, std::string_view name, int p) {
  for (const broken& b : broken_algorithms)
    if (b.coll == c && b.name == name && b.at(p)) return std::string(b.what);
  return {};
}

std::string algorithm_for_call(collective c, const std::string& name, int p, std::size_t count,
                               std::size_t element_bytes) {
  if (name != ompi41) return name;
  return std::string(ompi41_decision(c, p, count, element_bytes).value().smpi);
}

void select(collective c, const std::string& name) {
  const choosable* x = find(c);
  if (x == nullptr) throw std::logic_error("SMPI has no choice of algorithm for this collective");
  x->set(name);
}

std::string launch_choice(collective c) {
  // As SMPI's own set_collectives() decides at MPI_Init.
  std::string choice = simgrid::config::get_value<std::string>("smpi/" + std::string(collective_name(c)));
  if (choice.empty()) choice = simgrid::config::get_value<std::string>("smpi/coll-selector");
  return choice.empty() ? "default" : choice;
}

}  // namespace collbench::smpi
