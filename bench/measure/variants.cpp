// SPDX-License-Identifier: BSD-3-Clause
#include "measure/variants.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "measure/metrics.hpp"
#include "measure/mpit.hpp"
#include "measure/per_collective.hpp"
#if COLLBENCH_SMPI
#include "vendors/smpi_colls.hpp"
#endif

namespace collbench {
namespace {

using collectives::algorithm;
using collectives::collective;

// The part of Open MPI's coll_tuned_<part>_algorithm control variables naming each collective, and
// MPICH's MPIR_CVAR_<PART>_INTRA_ALGORITHM (upper case): the MPI function's name. reduce_scatter is
// the block form, as the library's, and reduce_scatterv MPI_Reduce_scatter.
struct tuned_row {
  collective coll;
  std::string_view part;
};
constexpr per_collective<tuned_row> tuned_parts{{
    {collective::broadcast, "bcast"},
    {collective::scatter, "scatter"},
    {collective::gather, "gather"},
    {collective::reduce, "reduce"},
    {collective::allgather, "allgather"},
    {collective::reduce_scatter, "reduce_scatter_block"},
    {collective::alltoall, "alltoall"},
    {collective::allreduce, "allreduce"},
    {collective::barrier, "barrier"},
    {collective::scan, "scan"},
    {collective::exscan, "exscan"},
    {collective::gatherv, "gatherv"},    // Open MPI 4.1's coll/tuned has no variable for it: none offered
    {collective::scatterv, "scatterv"},  // likewise
    {collective::allgatherv, "allgatherv"},
    {collective::alltoallv, "alltoallv"},
    {collective::reduce_scatterv, "reduce_scatter"},
}};
static_assert(in_collective_order(tuned_parts), "tuned_parts: row i names collective i");

std::string_view tuned_name(collective c) { return row_of(tuned_parts, c).part; }

std::string snake_case(std::string_view s) {
  std::string out;
  for (char ch : s)
    out += std::isalnum(static_cast<unsigned char>(ch)) ? static_cast<char>(std::tolower(ch)) : '_';
  return out;
}

// MPICH's algorithm choices, in the order of their values (0, "auto", is left out: MPICH's own
// decision). MPICH exposes MPIR_CVAR_<COLLECTIVE>_INTRA_ALGORITHM as a plain int without an
// MPI_T enum; the names are only in its description, whose lines ("name<spaces>- text", one per
// value, in value order) arrive joined without line breaks:
//   "...algorithmauto - Internal ... JSON_FILE)binomial      - Force binomial algorithmnb       - Force ..."
// Every line after "auto" pads its name to one common width W before "- ", so a name is the last
// W − (spaces) characters of the identifier run that ends at its padding. W is the smallest
// run + spaces: exact for a name not glued to a lower-case word (the first one, after "…FILE)").
std::vector<std::string> mpich_choices(std::string_view desc) {
  struct line {
    std::string_view run;  // identifier characters before the padding: the name, maybe glued
    std::size_t spaces;
  };
  const auto identifier = [](char ch) {
    return std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) ||
           ch == '_';
  };
  std::vector<line> lines;
  for (std::size_t dash = desc.find(" - "); dash != std::string_view::npos;
       dash = desc.find(" - ", dash + 1)) {
    std::size_t end = dash + 1;
    while (end > 0 && desc[end - 1] == ' ') --end;
    std::size_t begin = end;
    while (begin > 0 && identifier(desc[begin - 1])) --begin;
    lines.push_back({desc.substr(begin, end - begin), dash + 1 - end});
  }
  if (lines.size() < 2 || !lines.front().run.ends_with("auto")) return {};
  std::size_t width = std::string_view::npos;
  for (std::size_t i = 1; i < lines.size(); ++i)
    width = std::min(width, lines[i].run.size() + lines[i].spaces);
  std::vector<std::string> names;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (width <= lines[i].spaces) return {};
    names.emplace_back(lines[i].run.substr(lines[i].run.size() - (width - lines[i].spaces)));
  }
  return names;
}

// Open MPI's algorithms that are segmented by name (see variants.hpp). Its trees (binomial,
// binary_tree, …) take a segment size too, but stay whole, like the library's.
bool segmented(std::string_view name) {
  return name == "chain" || name == "pipeline" || name == "segmented_ring";
}

bool is_library_group(const std::string& name) { return name == "all" || name == "library"; }
bool is_vendor_group(const std::string& name) { return name == "all" || name == "vendor:all"; }

}  // namespace

std::size_t pipeline_segment_bytes(std::size_t unset) {
  const char* text = std::getenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
  if (text == nullptr) return unset;
  const std::string_view value(text);
  std::size_t bytes = 0;
  const auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), bytes);
  return status == std::errc() && end == value.data() + value.size() && bytes > 0 ? bytes : unset;
}

bool enable_vendor_forcing() {
#ifdef OMPI_MAJOR_VERSION
  return std::getenv("OMPI_MCA_coll_tuned_use_dynamic_rules") == nullptr &&
         setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", /*overwrite=*/0) == 0;
#else
  return false;
#endif
}

vendor_internals::vendor_internals(MPI_Comm base, int ranks) : base_(base) {
  if (ranks == 1) {
    reason_ = "one process: the MPI library copies the data itself, no internal algorithm runs";
    return;
  }
#if COLLBENCH_SMPI
  for (collective c : collectives::all_collectives()) {
    const std::vector<std::string> names = smpi::algorithms(c);
    for (std::size_t i = 0; i < names.size(); ++i) {
      const vendor_internal v{c, names[i], static_cast<int>(i), 0};
      if (std::string why = smpi::unusable(c, names[i], ranks); !why.empty())
        left_out_.emplace_back(
            v, fmt::format("SimGrid's {} {} {} at {} ranks", smpi::collective_name(c), names[i], why, ranks));
      else
        available_.push_back(v);
    }
  }
  return;
#endif
  int provided = 0;
  mpit_ = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
  if (!mpit_) {
    reason_ = "the MPI tool interface (MPI_T) is not available";
    return;
  }
  if (find_cvar("MPIR_CVAR_DEVICE_COLLECTIVES", nullptr) >= 0) {
    discover_mpich();
    return;
  }
  discover_open_mpi(ranks);
}

void vendor_internals::discover_open_mpi(int ranks) {
  int dynamic_index = find_cvar("coll_tuned_use_dynamic_rules", nullptr);
  int dynamic = 0;
  if (dynamic_index < 0) {
    reason_ =
        "this MPI library has neither Open MPI's coll_tuned nor MPICH's "
        "MPIR_CVAR_<collective>_INTRA_ALGORITHM control variables";
    return;
  }
  if (!access_cvar(dynamic_index, &dynamic, false) || !dynamic) {
    reason_ =
        "Open MPI's coll_tuned_use_dynamic_rules is off (set OMPI_MCA_coll_tuned_use_dynamic_rules=1 or "
        "leave it unset)";
    return;
  }
  for (collective c : collectives::all_collectives()) {
    MPI_T_enum names = MPI_T_ENUM_NULL;
    const int index = find_cvar(fmt::format("coll_tuned_{}_algorithm", tuned_name(c)), &names);
    cvar_index_.push_back(index);
    segment_index_.push_back(
        find_cvar(fmt::format("coll_tuned_{}_algorithm_segmentsize", tuned_name(c)), nullptr));
    if (index < 0 || names == MPI_T_ENUM_NULL) continue;
    int items = 0;
    char enum_name[256];
    int enum_name_len = sizeof enum_name;
    MPI_T_enum_get_info(names, &items, enum_name, &enum_name_len);
    for (int i = 0; i < items; ++i) {
      int value = 0;
      char item[256];
      int item_len = sizeof item;
      if (MPI_T_enum_get_item(names, i, &value, item, &item_len) != MPI_SUCCESS || value == 0) continue;
      // Open MPI 4.1 refuses some values it lists (coll_tuned_allgatherv_algorithm takes none but
      // "ignore" through MPI_T): probe the write, and reset at once, before any communicator is made.
      int probe = value, ignore = 0;
      if (!access_cvar(index, &probe, true)) continue;
      if (!access_cvar(index, &ignore, true))
        throw std::runtime_error(
            fmt::format("cannot reset coll_tuned_{}_algorithm through MPI_T", tuned_name(c)));
      std::string name = snake_case(item);
      // Open MPI's two-process algorithms refuse any other size.
      if (name == "two_proc" && ranks != 2) continue;
      int segment = 0;
      if (segmented(name)) {
        if (segment_index_.back() < 0) continue;  // it would run as one segment: not what it is called
        segment = static_cast<int>(pipeline_segment_bytes());
      }
      available_.push_back({c, std::move(name), value, segment});
    }
  }
  if (available_.empty())
    reason_ = "no coll_tuned_<collective>_algorithm control variable lists an algorithm";
}

void vendor_internals::discover_mpich() {
  for (collective c : collectives::all_collectives()) {
    std::string upper(tuned_name(c));
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    std::string description;
    const int algorithm =
        find_cvar(fmt::format("MPIR_CVAR_{}_INTRA_ALGORITHM", upper), nullptr, &description);
    const int device = find_cvar(fmt::format("MPIR_CVAR_{}_DEVICE_COLLECTIVE", upper), nullptr);
    mpich_cvars& cv = mpich_.emplace_back();
    const std::vector<std::string> names = mpich_choices(description);
    if (algorithm < 0 || device < 0 || names.empty()) continue;
    int count = 0;
    if (MPI_T_cvar_handle_alloc(algorithm, nullptr, &cv.algorithm, &count) != MPI_SUCCESS) continue;
    if (MPI_T_cvar_handle_alloc(device, nullptr, &cv.device, &count) != MPI_SUCCESS) {
      MPI_T_cvar_handle_free(&cv.algorithm);
      continue;
    }
    cv.valid = MPI_T_cvar_read(cv.algorithm, &cv.algorithm_default) == MPI_SUCCESS &&
               MPI_T_cvar_read(cv.device, &cv.device_default) == MPI_SUCCESS;
    if (!cv.valid) continue;
    for (std::size_t i = 0; i < names.size(); ++i)
      available_.push_back({c, names[i], static_cast<int>(i + 1), 0});
  }
  if (available_.empty())
    reason_ = "no MPIR_CVAR_<collective>_INTRA_ALGORITHM control variable lists an algorithm";
}

std::string vendor_internals::left_out(collective c, std::string_view name) const {
  for (const auto& [v, why] : left_out_)
    if (v.coll == c && "vendor:" + v.name == name) return why;
  return {};
}

vendor_internals::~vendor_internals() {
  for (locked& l : comms_) MPI_Comm_free(&l.comm);
  for (mpich_cvars& cv : mpich_) {
    if (cv.algorithm != MPI_T_CVAR_HANDLE_NULL) MPI_T_cvar_handle_free(&cv.algorithm);
    if (cv.device != MPI_T_CVAR_HANDLE_NULL) MPI_T_cvar_handle_free(&cv.device);
  }
  if (mpit_) MPI_T_finalize();
}

std::vector<cvar_setting> vendor_internals::per_call(const vendor_internal& v) const {
  if (mpich_.empty()) return {};
  const mpich_cvars& cv = mpich_.at(static_cast<std::size_t>(v.coll));
  return {{cv.algorithm, v.value, cv.algorithm_default}, {cv.device, 0, cv.device_default}};
}

MPI_Comm vendor_internals::communicator(const vendor_internal& v) {
  // MPICH reads its control variables at every call, SMPI is switched per call: any communicator
  // will do.
  if (!mpich_.empty() || smpi()) return base_;
  for (const locked& l : comms_)
    if (l.coll == v.coll && l.value == v.value) return l.comm;
  const int index = cvar_index_.at(static_cast<std::size_t>(v.coll));
  const int segment_index = segment_index_.at(static_cast<std::size_t>(v.coll));
  // A failed write, the resets included, stops the run: a reset that failed would leave every
  // later communicator (the library's own among them) forced.
  const auto write = [&](int cvar, int value, std::string_view suffix) {
    if (!access_cvar(cvar, &value, true))
      throw std::runtime_error(
          fmt::format("cannot write coll_tuned_{}_algorithm{} through MPI_T", tuned_name(v.coll), suffix));
  };
  int segment_before = 0;
  if (v.segment_bytes > 0 && !access_cvar(segment_index, &segment_before, false))
    throw std::runtime_error(
        fmt::format("cannot read coll_tuned_{}_algorithm_segmentsize through MPI_T", tuned_name(v.coll)));
  // The tuned module reads the forced values while the new communicator is created; resetting
  // them right after leaves every later communicator with the default decision.
  write(index, v.value, "");
  if (v.segment_bytes > 0) write(segment_index, v.segment_bytes, "_segmentsize");
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(base_, &comm);
  write(index, 0, "");
  if (v.segment_bytes > 0) write(segment_index, segment_before, "_segmentsize");
  comms_.push_back({v.coll, v.value, comm});
  return comm;
}

forcing_scope::forcing_scope(const variant& v) : settings_(v.per_call) {
  for (const cvar_setting& s : settings_) {
    int value = s.value;
    if (MPI_T_cvar_write(s.handle, &value) != MPI_SUCCESS)
      throw std::runtime_error(fmt::format("cannot force {} through MPI_T", v.label));
  }
}

forcing_scope::~forcing_scope() {
  for (const cvar_setting& s : settings_) {
    int value = s.restore;
    // A variable left forced would force every later call, vendor's and the other rows' alike.
    if (MPI_T_cvar_write(s.handle, &value) != MPI_SUCCESS) {
      std::fprintf(stderr, "collbench: cannot reset a control variable through MPI_T\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

std::vector<variant> select_variants(collective c, const std::vector<std::string>& requested,
                                     vendor_internals& internals) {
  const auto wanted = [&](const std::string& name, bool (*group)(const std::string&)) {
    return std::any_of(requested.begin(), requested.end(),
                       [&](const std::string& r) { return r == name || group(r); });
  };
  std::vector<variant> out{{"vendor", algorithm::vendor, MPI_COMM_NULL}};
  for (algorithm a : collectives::algorithms_for(c)) {
    const std::string name(to_string(a));
    if (a != algorithm::vendor && wanted(name, is_library_group)) out.push_back({name, a, MPI_COMM_NULL});
  }
  // A radix-k algorithm at a radix of its own (`knomial:8`): measured only when named, as such.
  for (const std::string& name : requested) {
    const std::optional<collectives::selection> s = collectives::parse_selection(name);
    if (s && s->radix != 0 && collectives::default_radix(c, s->alg) != 0)
      out.push_back({name, *s, MPI_COMM_NULL});
  }
  // automatic is not in algorithms_for(), and pmpi is no library algorithm: measured only when named.
  if (std::find(requested.begin(), requested.end(), "automatic") != requested.end())
    out.push_back({"automatic", algorithm::automatic, MPI_COMM_NULL});
  if (std::find(requested.begin(), requested.end(), "pmpi") != requested.end())
    out.push_back({.label = "pmpi", .profiling_name = true});
  for (const vendor_internal& v : internals.available()) {
    const std::string label = "vendor:" + v.name;
    if (v.coll != c || !wanted(label, is_vendor_group)) continue;
    out.push_back({label, algorithm::vendor, internals.communicator(v), internals.per_call(v)});
#if COLLBENCH_SMPI
    out.back().smpi_choice = v.name;
    out.back().smpi_restore = smpi::launch_choice(c);
#endif
  }
  return out;
}

std::string check_selection(std::span<const collective> colls, const std::vector<std::string>& requested,
                            const vendor_internals& internals, bool skip_left_out) {
  std::string colls_text;
  for (collective c : colls) colls_text += fmt::format("{}{}", colls_text.empty() ? "" : ", ", to_string(c));
  for (const std::string& name : requested) {
    if (name == "all" || name == "library" || name == "pmpi") continue;
    if (name == "vendor:all") {
      if (internals.available().empty())
        return fmt::format("vendor:all: no internal algorithm of the MPI library can be forced: {}",
                           internals.unavailable_reason());
      continue;
    }
    std::string offered;
    bool found = false;
    if (name.starts_with("vendor:")) {
      if (internals.available().empty())
        return fmt::format("{}: no internal algorithm of the MPI library can be forced: {}", name,
                           internals.unavailable_reason());
      for (const vendor_internal& v : internals.available()) {
        if (std::find(colls.begin(), colls.end(), v.coll) == colls.end()) continue;
        found = found || name == "vendor:" + v.name;
        if (offered.find("vendor:" + v.name + ",") == std::string::npos)
          offered += fmt::format("vendor:{}, ", v.name);
      }
      if (!found) {
        for (collective c : colls) {
          const std::string why = internals.left_out(c, name);
          if (why.empty()) continue;
          if (!skip_left_out) return fmt::format("{}: left out, {}", name, why);
          found = true;
        }
        if (found) continue;
        return fmt::format("unknown vendor algorithm '{}' for {}; the MPI library offers: {}", name,
                           colls_text, offered.empty() ? "none" : offered.substr(0, offered.size() - 2));
      }
      continue;
    }
    const collectives::selection s = *collectives::parse_selection(name);
    const algorithm a = s.alg;
    for (collective c : colls)
      found =
          found || (collectives::supports(c, a) && (s.radix == 0 || collectives::default_radix(c, a) != 0));
    if (!found) {
      for (collective c : colls) {
        std::string list;
        for (algorithm x : collectives::algorithms_for(c))
          list += fmt::format("{}{}", list.empty() ? "" : " ", to_string(x));
        offered += fmt::format("\n  {}: {}", to_string(c), list);
      }
      if (s.radix != 0) {
        // The radix-k algorithms of the collectives asked for, each once, from the descriptors.
        std::vector<std::string_view> radix_k;
        for (collective c : colls)
          for (algorithm x : collectives::algorithms_for(c))
            if (collectives::default_radix(c, x) != 0 &&
                std::find(radix_k.begin(), radix_k.end(), to_string(x)) == radix_k.end())
              radix_k.push_back(to_string(x));
        return fmt::format("algorithm '{}': {} takes no radix in {} (the radix-k algorithms: {})", name,
                           to_string(a), colls_text,
                           radix_k.empty() ? "none" : fmt::to_string(fmt::join(radix_k, ", ")));
      }
      return fmt::format("algorithm '{}' does not exist for {}; they have:{}", name, colls_text, offered);
    }
  }
  return {};
}

}  // namespace collbench
