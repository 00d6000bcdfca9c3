// SPDX-License-Identifier: BSD-3-Clause
// collbench's run (run.hpp), step by step.

#include "measure/run.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <algorithm>
#include <collectives/collectives.hpp>
#include <ctime>
#include <fstream>
#include <iostream>
#include <limits>
#include <thread>

#include "measure/measure.hpp"
#include "measure/metrics.hpp"
#include "measure/mpit.hpp"
#include "measure/variants.hpp"
#include "measure/workload.hpp"
#include "model/model.hpp"
#include "report/draw.hpp"
#include "report/output.hpp"

namespace collbench {
namespace {

using collectives::collective;

std::string mpi_library() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string s(text, static_cast<std::size_t>(len));
  s = s.substr(0, s.find_first_of("\r\n,"));
  return s;
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&t));
  return text;
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// The ranks sharing rank 0's node, to tell whether the run is oversubscribed.
int ranks_on_my_node(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 1;
  MPI_Comm_size(node, &n);
  MPI_Comm_free(&node);
  return n;
}

std::string describe_timing(const options& o) {
  const bool batched = o.timing != timing_mode::synchronized;
  const std::string counts = fmt::format(
      "iterations {} (at least {}), warm-up {}, timed iterations bounded by {} per size; each iteration runs "
      "every algorithm once, in a fresh random order",
      o.iterations > 0 ? fmt::format("{}", o.iterations)
      : batched
          ? "auto (as many calls as synchronized mode makes, 1000 up to 8 KiB per rank and 100 above, in "
            "at least 10 batches)"
          : "auto (1000 up to 8 KiB per rank, 100 above)",
      o.min_iterations,
      o.warmup >= 0 ? fmt::format("{} rounds", o.warmup)
      : batched     ? "auto (100 calls up to 8 KiB per rank, 10 above, in whole batches)"
                    : "auto (100 rounds up to 8 KiB per rank, 10 above)",
      o.seconds_per_size > 0 ? fmt::format("{} s", o.seconds_per_size) : "nothing");
  const std::string batch =
      o.batch > 0 ? fmt::format("{}", o.batch) : "auto (as many as move 32 MiB, from 2 to 100)";
  if (o.timing == timing_mode::back_to_back)
    return fmt::format(
        "timing back-to-back: {}; an iteration of an algorithm is a batch of {} calls issued one after the "
        "other after a barrier, as applications issue them (a rooted collective's root may run ahead, calls "
        "may overlap); time per call = each rank's time for the batch ÷ its calls, maximum over ranks per "
        "batch, median/min/max over batches",
        counts, batch);
  if (o.timing == timing_mode::imb)
    return fmt::format(
        "timing imb: {}; an iteration of an algorithm is a batch of {} calls timed as IMB-MPI1 times a "
        "collective (two barriers, then each call timed on its own by every rank, a barrier after it); time "
        "per call = each rank's mean over the batch, averaged over ranks (IMB's t_avg), median/min/max over "
        "batches",
        counts, batch);
  return fmt::format(
      "timing synchronized: {}; each call after a barrier, started at an instant common to all ranks and "
      "timed from it; maximum over ranks per iteration, median/min/max over iterations",
      counts);
}

// One line per collective, `<collective>: <algorithm> ...` in algorithms_for() order, as the
// drop-in's COLLECTIVES_ALGORITHMS=help prints them (tests/pmpi/check.sh help compares the two),
// then the MPI library's internal algorithms this build can force (vendor:<name>).
void print_list(const vendor_internals& internals) {
  for (collective c : collectives::all_collectives()) {
    fmt::print("{}:", to_string(c));
    for (collectives::algorithm a : collectives::algorithms_for(c)) fmt::print(" {}", to_string(a));
    for (const vendor_internal& v : internals.available())
      if (v.coll == c) fmt::print(" vendor:{}", v.name);
    fmt::print("\n");
  }
  for (const auto& [v, why] : internals.left_out())
    fmt::print("(left out: {} vendor:{}: {})\n", to_string(v.coll), v.name, why);
  if (internals.available().empty())
    fmt::print("(no vendor internals: {})\n", internals.unavailable_reason());
  fmt::print(
      "-a also takes: all (the default: every algorithm above), library (the library's only), vendor:all "
      "(the vendor's internal ones), automatic (the library's own choice) and pmpi (the MPI library's "
      "collective by its profiling name, PMPI_*), the last two measured only when named\n");
}

// The vendor:<name> rows named in -a that some collective of the run has, but not at this process
// count (check_selection lets them through with --skip-left-out, or where another collective runs them).
std::vector<left_out_row> left_out_rows(const options& o, const vendor_internals& internals) {
  std::vector<left_out_row> out;
  for (collective c : o.collectives)
    for (const std::string& name : o.algorithms)
      if (std::string why = internals.left_out(c, name); !why.empty())
        out.push_back({std::string(to_string(c)), name, std::move(why)});
  return out;
}

#if COLLBENCH_SMPI
// Half the memory this machine has free at the start, read by rank 0 for all simulated ranks (each
// reading it at its own moment could decide differently, and the ranks must agree).
double simulated_memory_budget(MPI_Comm comm, int rank) {
  double available_kib = 0;
  if (rank == 0) {
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key; meminfo >> key;) {
      if (key == "MemAvailable:") {
        meminfo >> available_kib;
        break;
      }
      meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
  }
  MPI_Bcast(&available_kib, 1, MPI_DOUBLE, 0, comm);
  return available_kib * 1024 / 2;
}

// SMPI's own collectives (the vendor rows) allocate their temporaries on every simulated rank with
// new[], which shared allocation cannot fold: up to about two buffers of the call's size each. The
// rows that would need more than the budget are left out at that size, said once on stderr (at
// 1024 ranks × 16 MiB: 32 GiB); the library's scratch comes from malloc and is shared.
std::vector<variant> variants_that_fit(const std::vector<variant>& variants, const message& m, int ranks,
                                       double budget, bool check, int rank, const std::string& where) {
  const double needed = 2.0 * static_cast<double>(ranks) * static_cast<double>(m.bytes);
  if (needed <= budget) return variants;
  // vendor's result is the check's reference.
  if (check)
    throw std::runtime_error(
        fmt::format("{}: SMPI's collectives would need about {:.1f} GiB of private temporaries, over half "
                    "the free memory; "
                    "run with --no-check (their rows are then left out)",
                    where, needed / (1 << 30)));
  std::vector<variant> out;
  for (const variant& v : variants)
    if (v.alg != collectives::algorithm::vendor) out.push_back(v);
  if (rank == 0)
    fmt::print(stderr,
               "collbench: {}: vendor rows left out: SMPI's collectives would allocate about {:.1f} GiB of "
               "private temporaries (2 × {} ranks × the call's bytes), over half this machine's free memory "
               "({:.1f} GiB)\n",
               where, needed / (1 << 30), ranks, budget / (1 << 30));
  return out;
}
#endif

std::vector<row> make_rows(collective c, int ranks, const message& m, const options& o,
                           std::span<const variant> variants, std::span<const sample> samples,
                           const run_info& info) {
  const std::optional<machine>& model = info.model;
  std::vector<row> rows;
  const double factor = busbw_factor(c, ranks);
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const sample& s = samples[i];
    row r;
    r.collective = std::string(to_string(c));
    r.algorithm = variants[i].label;
    r.ranks = ranks;
    r.bytes = m.bytes;
    r.count = m.count;
    r.type = std::string(to_string(o.type));
    r.median_us = s.median * 1e6;
    r.min_us = s.min * 1e6;
    r.max_us = s.max * 1e6;
    r.iterations = s.iterations;
    r.algbw_GBps = gigabytes_per_second(m.bytes, s.median);
    r.busbw_GBps = r.algbw_GBps * factor;
    // Against vendor, the first variant, unless a simulated run left the vendor rows out (0).
    const bool vendor_first = variants[0].label == "vendor";
    r.vs_vendor = vendor_first && samples[0].median > 0 ? s.median / samples[0].median : 0.0;
    r.late_fraction = s.calls > 0 ? static_cast<double>(s.late) / s.calls : 0.0;
    r.wrong = s.wrong;
    r.shm_copy = info.shm_copy.path;
    r.timing = info.timing_mode;
    r.batch = s.batch;
    if (info.model) r.model_us = model_us(c, r.algorithm, info, m.bytes, m.count);
    if (model && model->memcpy_bandwidth > 0)
      r.busbw_of_memcpy = r.busbw_GBps * 1e9 / model->memcpy_bandwidth;
    rows.push_back(std::move(r));
  }
  return rows;
}

// What the vendor rows can force, and how.
std::string describe_internals(const vendor_internals& internals, bool forcing_set_here) {
  return internals.available().empty() ? internals.unavailable_reason()
         : internals.smpi()
             ? std::string(
                   "SimGrid SMPI, its algorithm set per call inside the simulator: vendor:ompi, "
                   "vendor:mpich, "
                   "vendor:mvapich2 and vendor:impi reproduce those libraries' selection logic, the other "
                   "vendor:<name> rows are SMPI's single algorithms; vendor is the launch's choice")
         : internals.mpich()
             ? std::string(
                   "MPICH, MPIR_CVAR_<collective>_INTRA_ALGORITHM set through MPI_T around each call, with "
                   "MPIR_CVAR_<collective>_DEVICE_COLLECTIVE=0 (the device's own selection off); where a "
                   "forced "
                   "algorithm cannot run, MPICH uses its own choice")
             : fmt::format(
                   "Open MPI coll/tuned, coll_tuned_<collective>_algorithm set through MPI_T for a "
                   "duplicated "
                   "communicator; chain, pipeline and segmented_ring with "
                   "coll_tuned_<collective>_algorithm_segmentsize "
                   "= {} B, the library's pipeline segment (coll_tuned_use_dynamic_rules=1 {})",
                   pipeline_segment_bytes(), forcing_set_here ? "set by collbench" : "from the environment");
}

run_info describe_run(MPI_Comm comm, const options& o, const vendor_internals& internals,
                      bool forcing_set_here) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  run_info info;
  info.version = COLLBENCH_VERSION;
  info.mpi_library = mpi_library();
  info.host = host_name();
  info.date = now_iso();
  info.ranks = size;
  info.cores = static_cast<int>(std::thread::hardware_concurrency());
  info.oversubscribed = ranks_on_my_node(comm) > info.cores;
  info.type = std::string(to_string(o.type));
  info.op = std::string(to_string(o.op));
  info.root = o.root;
  info.skew = o.skew;
  info.check = o.check;
  info.timing = describe_timing(o);
  info.timing_mode = std::string(to_string(o.timing));
  info.shm_copy = shm_copy_in_force();
  info.eager = collectives::eager_limits_in_force();
  info.left_out = left_out_rows(o, internals);
  if (rank == 0)
    for (const left_out_row& l : info.left_out)
      fmt::print(stderr, "collbench: {} {}: left out, {}\n", l.collective, l.algorithm, l.reason);
  info.vendor_internals = describe_internals(internals, forcing_set_here);
  return info;
}

// With --model, the machine's figures; where the ranks sit.
void measure_the_machine(MPI_Comm comm, const options& o, run_info& info, progress& prog) {
  if (o.model) {
    prog.note("measuring the model (ping-pong, reduction kernel, memcpy)");
    // The exchanges stop at the smaller E: ranks 0 and 1 may sit on two hosts.
    const std::size_t eager = info.eager ? std::min(info.eager->same_host, info.eager->other_host) : 0;
    info.model = measure_machine(comm, o.type, o.op, o.sizes().empty() ? 0 : o.sizes().back(), eager);
  }
  // Where the ranks sit; with --model also α-β within a host and between two.
  if (o.model) prog.note("measuring α-β within a host and between hosts");
  info.hosts = measure_host_links(comm, o.model);
}

// The rows (on rank 0), and the timed calls and the late ones of every size.
struct measurements {
  std::vector<row> rows;
  long long calls = 0, late = 0;
};

measurements measure_all(MPI_Comm comm, const options& o, vendor_internals& internals, const run_info& info,
                         timing_state& state, progress& prog) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  measurements out;
  const timing_policy policy{o.iterations, o.warmup, o.min_iterations, o.seconds_per_size, o.timing, o.batch};
  const std::vector<std::size_t> sizes = o.sizes();
#if COLLBENCH_SMPI
  const double memory_budget = simulated_memory_budget(comm, rank);
#endif
  for (collective c : o.collectives) {
    const std::vector<variant> variants = select_variants(c, o.algorithms, internals);
    const std::unique_ptr<workload> w = make_workload(c, o.type, o.op, o.root, comm, o.skew);
    std::size_t measured = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::optional<message> m = shape(c, sizes[i], size_of(o.type), size);
      if (!m || (i > 0 && shape(c, sizes[i - 1], size_of(o.type), size) == m)) continue;
      const std::string where =
          fmt::format("{} [size {}/{}] {}", to_string(c), i + 1, sizes.size(), format_size(m->bytes));
#if COLLBENCH_SMPI
      const std::vector<variant> here =
          variants_that_fit(variants, *m, size, memory_budget, o.check, rank, where);
#else
      const std::vector<variant>& here = variants;
#endif
      const std::vector<sample> samples =
          measure(comm, c, o.root, *w, here, *m, policy, state, o.check, prog, where);
      for (const sample& s : samples) out.calls += s.calls, out.late += s.late;
      if (rank == 0) {
        std::vector<row> more = make_rows(c, size, *m, o, here, samples, info);
        out.rows.insert(out.rows.end(), more.begin(), more.end());
      }
      ++measured;
    }
    if (measured == 0 && rank == 0)
      fmt::print(stderr, "collbench: {}: no size in the range gives every rank one {} element; skipped\n",
                 to_string(c), to_string(o.type));
  }
  return out;
}

void write_rows(std::ostream& os, const options& o, const run_info& info, const std::vector<row>& rows) {
  switch (o.format) {
    case output_format::table:
      write_table(os, info, rows);
      break;
    case output_format::csv:
      write_csv(os, rows);
      break;
    case output_format::json:
      write_json(os, info, rows);
      break;
  }
  os.flush();
}

}  // namespace

int run(MPI_Comm comm, const options& o, bool forcing_set_here) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto usage_error = [&](const std::string& message) {
    if (rank == 0) fmt::print(stderr, "collbench: {}\n", message);
    return 2;
  };
  if (o.root >= size)
    return usage_error(fmt::format("--root: a rank below {} (the ranks), given {}", size, o.root));

  if (!o.draw.empty()) return draw_algorithms(comm, o);

  vendor_internals internals(comm, size);
  if (o.list) {
    if (rank == 0) print_list(internals);
    return 0;
  }
  if (const std::string problem = check_selection(o.collectives, o.algorithms, internals, o.skip_left_out);
      !problem.empty())
    return usage_error(problem);

  // Open the output before measuring, so a bad path fails in a second, not after the run.
  std::ofstream file;
  int opened = 1;
  if (rank == 0 && !o.output.empty()) {
    file.open(o.output);
    opened = file.is_open();
  }
  MPI_Bcast(&opened, 1, MPI_INT, 0, comm);
  if (!opened) return usage_error(fmt::format("--output: cannot write '{}'", o.output));

  run_info info = describe_run(comm, o, internals, forcing_set_here);
  progress prog(!o.quiet, rank);
  measure_the_machine(comm, o, info, prog);
  prog.note("measuring the clock offsets and the start margin");
  timing_state state(comm, info.oversubscribed);
  const measurements m = measure_all(comm, o, internals, info, state, prog);
  // Batched, no call starts at a common instant: the start's figures would describe nothing.
  if (o.timing == timing_mode::synchronized)
    info.start = start_info{state.start.offset_error() * 1e6, state.start.calibrated_margin() * 1e6,
                            m.calls > 0 ? static_cast<double>(m.late) / static_cast<double>(m.calls) : 0.0};
  if (rank == 0) write_rows(o.output.empty() ? std::cout : file, o, info, m.rows);
  return 0;
}

}  // namespace collbench
