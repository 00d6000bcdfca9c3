// SPDX-License-Identifier: BSD-3-Clause
#include "kit/hosts.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "algorithms/allgather/allgather.hpp"
#include "collectives/error.hpp"
#include "dispatch/automatic.hpp"
#include "dispatch/registry.hpp"

namespace collectives::detail {
namespace {

// COLLECTIVES_SIMULATED_HOSTS=H or H:cyclic: the host of `rank`, or -1 when the variable is
// unset and MPI is to say which ranks share memory.
int simulated_host(int rank, int size) {
  const char* v = std::getenv("COLLECTIVES_SIMULATED_HOSTS");
  if (v == nullptr || *v == '\0') return -1;
  const std::string_view text(v);
  int hosts = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), hosts);
  const std::string_view rest(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (ec != std::errc() || hosts < 1 || (!rest.empty() && rest != ":cyclic"))
    throw error(fmt::format(
        "collectives: COLLECTIVES_SIMULATED_HOSTS='{}': expected H or H:cyclic with H ≥ 1", text));
  if (hosts > size) hosts = size;
  return rest.empty() ? static_cast<int>(static_cast<long long>(rank) * hosts / size) : rank % hosts;
}

int delete_layout(MPI_Comm, int, void* attribute, void*) {
  std::unique_ptr<host_layout> layout(static_cast<host_layout*>(attribute));
  int code = MPI_Comm_free(&layout->intra);
  if (code == MPI_SUCCESS) code = MPI_Comm_free(&layout->across);
  if (code == MPI_SUCCESS && layout->leaders != MPI_COMM_NULL) code = MPI_Comm_free(&layout->leaders);
  return code;
}

int layout_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &delete_layout, &k, nullptr),
              "MPI_Comm_create_keyval");
    return k;
  }();
  return keyval;
}

// E to each rank of `part`, a communicator split from net's: the rank's E in net's.
std::vector<std::size_t> eager_in(MPI_Comm part, const transport& net) {
  if (part == MPI_COMM_NULL) return {};
  std::vector<std::size_t> eager;
  for (int r : ranks_in(part, net.comm())) eager.push_back(net.eager_bytes(r));
  return eager;
}

std::unique_ptr<host_layout> build_layout(const transport& net) {
  const int rank = net.rank(), size = net.size();
  auto layout = std::make_unique<host_layout>();
  const int simulated = simulated_host(rank, size);
  if (simulated >= 0)
    check_mpi(MPI_Comm_split(net.comm(), simulated, rank, &layout->intra), "MPI_Comm_split");
  else
    check_mpi(MPI_Comm_split_type(net.comm(), MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &layout->intra),
              "MPI_Comm_split_type");
  check_mpi(MPI_Comm_rank(layout->intra, &layout->local_rank), "MPI_Comm_rank");

  // A host is named by its lowest rank (local rank 0, as the split keeps rank order); every
  // rank learns every rank's host name with the library's own all-gather.
  MPI_Group intra_group, group;
  check_mpi(MPI_Comm_group(layout->intra, &intra_group), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(net.comm(), &group), "MPI_Comm_group");
  const int first_local = 0;
  int lowest_rank = 0;
  check_mpi(MPI_Group_translate_ranks(intra_group, 1, &first_local, group, &lowest_rank),
            "MPI_Group_translate_ranks");
  MPI_Group_free(&intra_group);
  MPI_Group_free(&group);
  std::vector<int> lowest_of(static_cast<std::size_t>(size));
  allgather_bruck({net, reinterpret_cast<const std::byte*>(&lowest_rank),
                   reinterpret_cast<std::byte*>(lowest_of.data()), 1, element_type_of<int>(), nullptr, 0});

  // Hosts numbered in order of their lowest rank; local ranks in rank order within a host.
  std::vector<int> host_of_lowest(static_cast<std::size_t>(size), -1);
  layout->hosts = 0;
  for (int r = 0; r < size; ++r) {
    int& h = host_of_lowest[static_cast<std::size_t>(lowest_of[static_cast<std::size_t>(r)])];
    if (h < 0) {
      h = layout->hosts++;
      layout->host_size.push_back(0);
    }
    layout->host_of.push_back(h);
    layout->local_rank_of.push_back(layout->host_size[static_cast<std::size_t>(h)]++);
  }
  layout->host = layout->host_of[static_cast<std::size_t>(rank)];
  layout->uniform = true;
  for (int s : layout->host_size) layout->uniform = layout->uniform && s == layout->host_size.front();

  check_mpi(MPI_Comm_split(net.comm(), layout->local_rank,
                           layout->across_position(layout->host, layout->local_rank), &layout->across),
            "MPI_Comm_split");
  check_mpi(
      MPI_Comm_split(net.comm(), layout->local_rank == 0 ? 0 : MPI_UNDEFINED, layout->host, &layout->leaders),
      "MPI_Comm_split");
  // Errors on these come back as codes, as on the private communicator they were split from.
  for (MPI_Comm c : {layout->intra, layout->across, layout->leaders})
    if (c != MPI_COMM_NULL)
      check_mpi(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  layout->intra_eager = eager_in(layout->intra, net);
  layout->across_eager = eager_in(layout->across, net);
  layout->leaders_eager = eager_in(layout->leaders, net);
  return layout;
}

}  // namespace

const host_layout& hosts_of(const transport& net) {
  if (trace::on()) [[unlikely]]
    if (recording* r = active_recording()) return r->hosts(net.comm());
  const int keyval = layout_keyval();
  void* attribute = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(net.comm(), keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<const host_layout*>(attribute);
  std::unique_ptr<host_layout> layout = build_layout(net);
  check_mpi(MPI_Comm_set_attr(net.comm(), keyval, layout.get()), "MPI_Comm_set_attr");
  return *layout.release();  // now owned by the attribute, freed by delete_layout
}

void run_flat(collective coll, const call& c) {
  const algorithm alg =
      choose_automatic(coll, c.size(), c.bytes(c.count), c.count, c.op == nullptr || c.op->commutative);
  find_algorithm(coll, alg)->run(c);
}

}  // namespace collectives::detail
