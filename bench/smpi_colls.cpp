// SPDX-License-Identifier: BSD-3-Clause
#include "smpi_colls.hpp"

#include <algorithm>
#include <stdexcept>
#include <xbt/config.hpp>

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

std::string_view collective_name(collective c) {
  switch (c) {
    case collective::broadcast:
      return "bcast";
    case collective::scatter:
      return "scatter";
    case collective::gather:
      return "gather";
    case collective::reduce:
      return "reduce";
    case collective::allgather:
      return "allgather";
    case collective::allgatherv:
      return "allgatherv";
    case collective::reduce_scatter:   // MPI_Reduce_scatter_block runs SMPI's reduce_scatter
    case collective::reduce_scatterv:  // MPI_Reduce_scatter
      return "reduce_scatter";
    case collective::alltoall:
      return "alltoall";
    case collective::alltoallv:
      return "alltoallv";
    case collective::allreduce:
      return "allreduce";
    case collective::barrier:
      return "barrier";
    case collective::scan:
    case collective::exscan:
    case collective::gatherv:
    case collective::scatterv:
      break;
  }
  return {};
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
  out.insert(out.end(), single.begin(), single.end());
  return out;
}

void select(collective c, const std::string& name) {
  switch (c) {
    case collective::broadcast:
      return colls::set_bcast(name);
    case collective::scatter:
      return colls::set_scatter(name);
    case collective::gather:
      return colls::set_gather(name);
    case collective::reduce:
      return colls::set_reduce(name);
    case collective::allgather:
      return colls::set_allgather(name);
    case collective::allgatherv:
      return colls::set_allgatherv(name);
    case collective::reduce_scatter:
    case collective::reduce_scatterv:
      return colls::set_reduce_scatter(name);
    case collective::alltoall:
      return colls::set_alltoall(name);
    case collective::alltoallv:
      return colls::set_alltoallv(name);
    case collective::allreduce:
      return colls::set_allreduce(name);
    case collective::barrier:
      return colls::set_barrier(name);
    case collective::scan:
    case collective::exscan:
    case collective::gatherv:
    case collective::scatterv:
      break;
  }
  throw std::logic_error("SMPI has no choice of algorithm for this collective");
}

std::string launch_choice(collective c) {
  // As SMPI's own set_collectives() decides at MPI_Init.
  std::string choice = simgrid::config::get_value<std::string>("smpi/" + std::string(collective_name(c)));
  if (choice.empty()) choice = simgrid::config::get_value<std::string>("smpi/coll-selector");
  return choice.empty() ? "default" : choice;
}

}  // namespace collbench::smpi
