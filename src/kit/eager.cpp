// SPDX-License-Identifier: BSD-3-Clause
// The eager sizes of include/collectives/eager.hpp: read from the MPI library once per process.

#include "collectives/eager.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#if COLLECTIVES_SMPI
#include <xbt/config.h>

#include <simgrid/s4u/Host.hpp>
#endif

#include "collectives/error.hpp"
#include "kit/eager.hpp"
#include "kit/transport.hpp"

namespace collectives {
namespace {

#if COLLECTIVES_SMPI

// SMPI completes a standard send of fewer than smpi/send-is-detached-thresh bytes at once (it
// "detaches" it); from that size on, the send waits for its receive. A platform that simulates an
// MPI library whose own eager limit is lower (a calibrated one: collcalibrate detaches the sizes
// whose data goes before the receive, as a rendezvous's first fragment does) names that limit on
// its hosts, as the property collectives/eager-limit: the first size that waits.
eager_limits reported_by_mpi() {
  const int detached_below = sg_cfg_get_int("smpi/send-is-detached-thresh");
  const char* named = simgrid::s4u::Host::current()->get_property("collectives/eager-limit");
  long long first_waiting = detached_below;
  if (named != nullptr) {
    const std::string_view text(named);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), first_waiting);
    if (ec != std::errc() || end != text.data() + text.size() || first_waiting < 0 ||
        first_waiting > detached_below)
      throw error(
          fmt::format("collectives: the platform's collectives/eager-limit='{}' is not a size of at most "
                      "smpi/send-is-detached-thresh ({})",
                      text, detached_below));
  }
  const std::size_t limit = detail::smpi_eager_bytes(static_cast<std::size_t>(first_waiting));
  const std::string threshold = fmt::format("smpi/send-is-detached-thresh = {}", detached_below);
  return {limit, limit, true,
          fmt::format("SimGrid SMPI: {}; above E, exchanges with other hosts go in segments of E",
                      named != nullptr ? fmt::format("the platform's collectives/eager-limit = {} ({})",
                                                     first_waiting, threshold)
                                       : threshold + " (sends below it complete at once)"),
          true};
}

#else

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

// The value of an integer MPI_T control variable bound to no object.
std::optional<unsigned long long> read_cvar(int index, MPI_Datatype type) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS) return std::nullopt;
  unsigned long long buffer[4] = {};  // room for whatever width the variable has
  const bool read = count == 1 && MPI_T_cvar_read(handle, buffer) == MPI_SUCCESS;
  MPI_T_cvar_handle_free(&handle);
  if (!read) return std::nullopt;
  const auto as = [&]<typename T>(T) {
    T value;
    std::memcpy(&value, buffer, sizeof value);
    return value;
  };
  if (type == MPI_INT) return static_cast<unsigned long long>(std::max(0, as(int{})));
  if (type == MPI_UNSIGNED) return as(unsigned{});
  if (type == MPI_UNSIGNED_LONG || type == MPI_UNSIGNED_LONG_LONG || type == MPI_COUNT) return buffer[0];
  return std::nullopt;
}

struct transfer_layer {
  std::string name;  ///< as in btl_<name>_eager_limit
  unsigned long long eager_limit;
};

// Open MPI's byte-transfer layers that are loaded in this process, with their eager limits: each
// registers btl_<name>_eager_limit when it is opened, and the layers not opened register nothing.
std::vector<transfer_layer> open_mpi_transfer_layers() {
  std::vector<transfer_layer> layers;
  int count = 0;
  if (MPI_T_cvar_get_num(&count) != MPI_SUCCESS) return layers;
  constexpr std::string_view prefix = "btl_", suffix = "_eager_limit";
  for (int i = 0; i < count; ++i) {
    char name[256], description[16];
    int name_length = sizeof name, description_length = sizeof description, verbosity = 0, bind = 0,
        scope = 0;
    MPI_Datatype type;
    MPI_T_enum values;
    if (MPI_T_cvar_get_info(i, name, &name_length, &verbosity, &type, &values, description, &description_length,
                            &bind, &scope) != MPI_SUCCESS)
      continue;
    const std::string_view n(name);
    // btl_<name>_eager_limit, not btl_<name>_rndv_eager_limit.
    if (!n.starts_with(prefix) || !n.ends_with(suffix) || n.ends_with("_rndv_eager_limit")) continue;
    if (const auto limit = read_cvar(i, type))
      layers.push_back({std::string(n.substr(prefix.size(), n.size() - prefix.size() - suffix.size())), *limit});
  }
  return layers;
}

bool has_cvar(const char* name) {
  int index = 0;
  return MPI_T_cvar_get_index(name, &index) == MPI_SUCCESS;
}

// ob1 sends a message eagerly when its payload and ob1's largest header (the union
// mca_pml_ob1_hdr_t, 56 bytes in Open MPI 4) fit in the layer's eager limit.
constexpr unsigned long long ob1_header_bytes = 56;

eager_limits open_mpi_limits(const std::string& version) {
  if (!has_cvar("pml_ob1_priority"))
    return {0, 0, false, "Open MPI without its ob1 messaging layer (UCX?): no eager limit is known"};
  const std::vector<transfer_layer> layers = open_mpi_transfer_layers();
  constexpr auto none = std::numeric_limits<unsigned long long>::max();
  unsigned long long on_host = none, across = none;
  std::string listed;
  bool tcp_alone_across = false;  // segments across hosts measured faster over TCP only
  for (const transfer_layer& l : layers) {
    if (l.name == "self") continue;  // a rank's messages to itself: the library never sends them
    listed += fmt::format("{}btl_{}_eager_limit {}", listed.empty() ? "" : ", ", l.name, l.eager_limit);
    on_host = std::min(on_host, l.eager_limit);
    if (l.name != "vader" && l.name != "sm" && l.name != "smcuda") {
      tcp_alone_across = (across == none || tcp_alone_across) && l.name == "tcp";
      across = std::min(across, l.eager_limit);
    }
  }
  const auto payload = [](unsigned long long limit) -> std::size_t {
    return limit == none || limit <= ob1_header_bytes ? 0 : static_cast<std::size_t>(limit - ob1_header_bytes);
  };
  if (listed.empty()) return {0, 0, false, fmt::format("{}: no byte-transfer layer reports an eager limit", version)};
  return {payload(on_host), payload(across), true,
          fmt::format("{} ob1: {}, less the {}-byte ob1 header{}", version, listed, ob1_header_bytes,
                      tcp_alone_across ? "; above E, exchanges with other hosts go in segments of E (tcp)" : ""),
          tcp_alone_across};
}

eager_limits reported_by_mpi() {
  const std::string version = library_version();
  const std::string first_line = version.substr(0, version.find_first_of("\n,"));
  int provided = 0;
  if (version.starts_with("Open MPI v4.") && MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
    eager_limits limits = open_mpi_limits(first_line);
    MPI_T_finalize();
    return limits;
  }
  return {0, 0, false, fmt::format("{}: no eager limit this library knows how to read", first_line)};
}

#endif

std::optional<std::size_t> user_setting() {
  const char* text = std::getenv("COLLECTIVES_EAGER_BYTES");
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::string_view v(text);
  std::size_t bytes = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), bytes);
  if (ec != std::errc() || end != v.data() + v.size())
    throw error(fmt::format("collectives: COLLECTIVES_EAGER_BYTES='{}': expected a number of bytes (0 turns "
                            "the eager exchange off)",
                            v));
  return bytes;
}

eager_limits learn() {
  if (detail::synchronous_sends)
    return {0, 0, false, "COLLECTIVES_SYNCHRONOUS_SENDS: every send waits for its receive, so E = 0"};
  eager_limits mpi = reported_by_mpi();
  const std::optional<std::size_t> user = user_setting();
  if (!user) return mpi;
  const std::size_t least = std::min(mpi.same_host, mpi.other_host);
  if (mpi.from_mpi && *user > least)
    throw error(fmt::format("collectives: COLLECTIVES_EAGER_BYTES={} is above the MPI library's eager limit of "
                            "{} bytes ({}): a larger exchange would wait for its receiver",
                            *user, least, mpi.source));
  return {*user, *user, false,
          mpi.from_mpi ? fmt::format("COLLECTIVES_EAGER_BYTES={} (the MPI library's limits: {} B on this host, "
                                     "{} B to other hosts)",
                                     *user, mpi.same_host, mpi.other_host)
                       : fmt::format("COLLECTIVES_EAGER_BYTES={}, taken at the user's word ({})", *user, mpi.source)};
}

}  // namespace

const eager_limits& eager_limits_in_force() {
  static const eager_limits limits = learn();
  return limits;
}

}  // namespace collectives
