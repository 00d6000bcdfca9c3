// SPDX-License-Identifier: BSD-3-Clause
// Schedules as data (src/schedule/), without MPI: the library's own algorithm code recorded one
// rank at a time, and the p schedules of each call replayed together by the checker.
//
// - premise: recording a rank twice, with different inputs and different received values, and
//   once without data, gives the same schedule — so a schedule recorded alone is the one the rank
//   follows in a real call.
// - matrix: every algorithm of every collective (vendor aside; the radix-k ones also at radixes 2,
//   3, 8 and p ≤ 64: support/radixes.hpp) at every p from 1 to 64 and at
//   100, 127, 128, 255, 256, 257, 1000 and 1024; counts 0, 1, p−1, p, p+1 and a large one (the
//   v-variants: blocks uneven, empty, all empty, one rank holding all, random, large); roots
//   0, p−1 and p/2 in turn; the node-aware algorithms on several host layouts; each call under
//   no buffering (E = 0) and eager buffering (recorded with the same E as the replay's: 1 KiB;
//   up to p = 257 also an E between the call's own message sizes, so that within it some
//   messages go eager and others take turns, and 1 KiB on a host with 64 KiB across two hosts, E
//   per kind of peer as the library learns it). Every send must meet a receive of its size and every rank finish. Prints how many calls it
//   replayed and how long it took. COLLECTIVES_SCHEDULE_MATRIX=small (the sanitizer build,
//   instrumented and unoptimised, and MPICH's, whose schedules are Open MPI's) keeps p = 1-8,
//   16, 17, 32, 33, and runs the proofs below to p = 64.
// - swing: Swing's peer map and block map (kit/swing.hpp) proven at every power of two to 1024,
//   and the scatter tree of the bine_bandwidth algorithms from every root.
// - bine: the Bine trees of broadcast and reduce (kit/bine_tree.hpp) and of gather and scatter
//   (kit/bine_interval_tree.hpp) proven at every p to 1024 and several roots.
// - knomial: the binomial tree of every radix (kit/binomial_tree.hpp) proven at every p to 1024
//   and several roots: intervals that tile, in the order reduce's rank order needs.
// - planted: deadlocks, a size mismatch and a lost message put in on purpose, each found and
//   reported with the ranks and steps involved.

#define BOOST_TEST_MODULE schedules
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <collectives/algorithm.hpp>
#include <cstdlib>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "kit/collective_traits.hpp"
#include "dispatch/registry.hpp"
#include "kit/bine_tree.hpp"
#include "kit/bine_interval_tree.hpp"
#include "kit/binomial_tree.hpp"
#include "kit/swing.hpp"
#include "schedule/check.hpp"
#include "schedule/schedule.hpp"
#include "support/parallel_tasks.hpp"
#include "support/radixes.hpp"

namespace {

using collectives::algorithm;
using collectives::collective;
using namespace collectives::detail::schedule;
using collectives::detail::has_root;
using collectives::detail::is_v_variant;
namespace detail = collectives::detail;

// E for the eager model: 256 four-byte elements. Blocks of the small counts go eager, the large
// count's do not, and the v-variants' uneven blocks fall on both sides within one step.
constexpr std::size_t eager_bytes = 1024;
// E between hosts where it differs (Open MPI over TCP: 65480 B; SimGrid SMPI: 65535 B).
constexpr std::size_t eager_across = 65535;
constexpr std::size_t vector_large = 100'000;  // the MPI tests' large count
// The premise's, which moves real values: still more than one segment of the pipelines (64 KiB of
// the chain, 32 KiB of the trees: kit/segment.hpp).
constexpr std::size_t premise_large = 20'000;

// The whole vector per rank (the large count as in the MPI tests), or one block of p.
bool whole_vector(collective c) {
  return c == collective::broadcast || c == collective::reduce || c == collective::allreduce ||
         c == collective::scan || c == collective::exscan;
}

std::vector<algorithm> algorithms(collective c) {
  std::vector<algorithm> out;
  for (algorithm a : collectives::algorithms_for(c))
    if (a != algorithm::vendor) out.push_back(a);
  return out;
}

std::vector<std::size_t> counts_for(collective c, int p) {
  const auto n = static_cast<std::size_t>(p);
  // Blocks of at least 4 KiB at every p: above E, so rendezvous where the small ones are eager.
  const std::size_t large = whole_vector(c) ? vector_large : std::max<std::size_t>(7 * n + 3, 1000);
  std::vector<std::size_t> out{0, 1, n - 1, n, n + 1, large};
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The v-variants' blocks: p values (alltoallv: p × p, row i what rank i sends), uneven and empty.
std::vector<std::vector<std::size_t>> v_counts_for(collective c, int p) {
  const auto n = static_cast<std::size_t>(p);
  std::vector<std::vector<std::size_t>> out;
  std::mt19937_64 gen(0x5eed + n);
  if (c == collective::alltoallv) {
    const auto matrix = [&](auto f) {
      std::vector<std::size_t> m(n * n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) m[i * n + j] = f(i, j);
      out.push_back(std::move(m));
    };
    matrix([](std::size_t, std::size_t) { return std::size_t{0}; });
    matrix([](std::size_t i, std::size_t j) { return (i + j) % 2 == 0 ? (i + 2 * j) % 5 + 1 : 0; });
    matrix([&](std::size_t i, std::size_t) { return i == n - 1 ? 2 * n + 1 : 0; });
    matrix([&](std::size_t, std::size_t) { return static_cast<std::size_t>(gen() % 4); });
    // Above E and empty blocks side by side.
    matrix([](std::size_t i, std::size_t j) { return (i + j) % 3 == 0 ? std::size_t{0} : std::size_t{300}; });
    return out;
  }
  std::vector<std::size_t> v(n);
  out.push_back(v);  // all empty
  for (std::size_t r = 0; r < n; ++r) v[r] = r % 2 == 0 ? r + 2 : 0;
  out.push_back(v);  // empty on odd ranks
  std::fill(v.begin(), v.end(), 0);
  v[n - 1] = 5 * n + 1;
  out.push_back(v);  // the last rank holds all
  for (std::size_t& x : v) x = gen() % (2 * n + 1);
  out.push_back(v);  // random, 0 … 2p
  std::fill(v.begin(), v.end(), 1000);
  v[n - 1] = 25'000;
  v[0] = 0;
  out.push_back(v);  // large and skewed, one empty
  return out;
}

// Host layouts for the node-aware algorithms: one host, two, three dealt round-robin, two ranks a
// host (the last alone when p is odd), one rank a host.
std::vector<host_spec> hosts_for(int p) {
  std::vector<host_spec> out{{1, false}, {2, false}, {3, true}, {(p + 1) / 2, false}, {p, false}};
  std::vector<host_spec> unique;
  for (const host_spec& h : out) {
    const int hosts = std::clamp(h.hosts, 1, p);
    const bool cyclic = h.cyclic && hosts > 1 && hosts < p;
    if (std::none_of(unique.begin(), unique.end(),
                     [&](const host_spec& u) { return u.hosts == hosts && u.cyclic == cyclic; }))
      unique.push_back({hosts, cyclic});
  }
  return unique;
}

// COLLECTIVES_SCHEDULE_MATRIX=small: the sanitizer build's few process counts.
bool small_matrix() {
  const char* v = std::getenv("COLLECTIVES_SCHEDULE_MATRIX");
  return v != nullptr && std::string_view(v) == "small";
}

std::vector<int> matrix_ps() {
  std::vector<int> ps;
  if (small_matrix()) return {1, 2, 3, 4, 5, 6, 7, 8, 16, 17, 32, 33};
  for (int p = 1; p <= 64; ++p) ps.push_back(p);
  for (int p : {100, 127, 128, 255, 256, 257, 1000, 1024}) ps.push_back(p);
  return ps;
}

// The largest p the proofs of the swing, bine and knomial maps run to (every p, or every power of
// two, up to it): 64 in the small matrix.
int proofs_max_p() { return small_matrix() ? 64 : 1024; }

std::vector<int> premise_ps() {
  if (small_matrix()) return {1, 2, 3, 5, 8};
  return {1, 2, 3, 4, 5, 7, 8, 13, 16};
}

// Every call of the matrix at p, for one collective and algorithm.
std::vector<call_spec> calls_for(collective c, algorithm a, int p) {
  std::vector<call_spec> out;
  const std::vector<int> roots{0, p - 1, p / 2};
  std::vector<host_spec> layouts{host_spec{}};
  if (detail::node_aware(c, a)) layouts = hosts_for(p);
  const auto add = [&](call_spec s, std::size_t i) {
    s.coll = c;
    s.alg = a;
    s.p = p;
    s.root = has_root(c) ? roots[i % roots.size()] : 0;
    for (const host_spec& h : layouts) {
      s.hosts = h;
      out.push_back(s);
    }
  };
  if (c == collective::barrier) {
    add({}, 0);
  } else if (is_v_variant(c)) {
    std::size_t i = 0;
    for (std::vector<std::size_t>& v : v_counts_for(c, p)) {
      call_spec s;
      s.counts = std::move(v);
      add(std::move(s), i++);
    }
  } else {
    std::size_t i = 0;
    for (std::size_t n : counts_for(c, p)) {
      call_spec s;
      s.count = n;
      add(std::move(s), i++);
    }
  }
  return out;
}

struct tally {
  std::atomic<std::uint64_t> calls{0}, rank_schedules{0}, messages{0}, straddled{0}, across{0};
  std::mutex mutex;
  std::vector<std::string> failures;
};

// An E between the call's own message sizes: the lower median of its distinct non-empty sizes, so
// that its smaller messages go eager and its larger ones take turns (with a single size, all but
// the empty ones take turns). 0 when it sends nothing larger than one byte.
std::size_t straddling_e(std::span<const rank_schedule> ranks) {
  std::unordered_set<std::uint64_t> seen;
  for (const rank_schedule& s : ranks) {
    std::uint64_t last = 0;
    for (const step& x : s)
      if (x.kind == op::send && x.bytes > 0 && x.bytes != last) seen.insert(last = x.bytes);
  }
  std::vector<std::uint64_t> sizes(seen.begin(), seen.end());
  std::sort(sizes.begin(), sizes.end());
  if (sizes.empty()) return 0;
  if (sizes.size() == 1) return sizes[0] - 1;
  return sizes[(sizes.size() - 1) / 2];
}

// The two E below run up to this p: at 1000 and 1024 they would double the test's time.
constexpr int extra_models_up_to = 257;

// One call under every model: E = 0 recorded and replayed without buffering; then recorded with E
// given to the transport (whose exchanges send first up to it) and replayed eager up to E: for
// E = eager_bytes, and up to p = 257 for an E between the call's own message sizes and for
// E = eager_bytes on a host and eager_across between hosts (two hosts; the node-aware algorithms
// keep their layout).
void check_models(const call_spec& call, tally& t) {
  thread_local std::vector<rank_schedule> all;
  const auto run = [&](const call_spec& spec) {
    verdict v;
    try {
      record_call_into(spec, {.locals = false}, false, all);
      v = replay(std::span(all).first(static_cast<std::size_t>(spec.p)),
                 spec.eager_bytes == 0 && !spec.eager_bytes_across ? model::none() : model::eager_as(spec));
    } catch (const std::exception& error) {
      v.ok = false;
      v.problem = fmt::format("recording threw: {}", error.what());
    }
    t.calls.fetch_add(1, std::memory_order_relaxed);
    t.rank_schedules.fetch_add(static_cast<std::uint64_t>(spec.p), std::memory_order_relaxed);
    t.messages.fetch_add(v.messages, std::memory_order_relaxed);
    if (!v.ok) {
      std::lock_guard lock(t.mutex);
      t.failures.push_back(fmt::format("{}: {}", describe(spec), v.problem));
    }
    return v.ok;
  };
  call_spec spec = call;
  spec.eager_bytes = 0;
  if (!run(spec)) return;
  const std::size_t straddle = straddling_e(std::span(all).first(static_cast<std::size_t>(spec.p)));
  spec.eager_bytes = eager_bytes;
  run(spec);
  if (spec.p > extra_models_up_to) return;
  if (straddle != 0 && straddle != eager_bytes) {
    t.straddled.fetch_add(1, std::memory_order_relaxed);
    spec.eager_bytes = straddle;
    run(spec);
  }
  spec.eager_bytes = eager_bytes;
  spec.eager_bytes_across = eager_across;
  if (spec.alg != algorithm::hierarchical) spec.hosts = {2, false};
  if (std::clamp(spec.hosts.hosts, 1, spec.p) > 1) {
    t.across.fetch_add(1, std::memory_order_relaxed);
    run(spec);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(premise_schedules_do_not_depend_on_values) {
  // Every rank recorded three ways: with its messages delivered and values of two different seeds
  // everywhere else (inputs, and receives recorded before their sender), and alone without data
  // (as the matrix records, unless the algorithm learns from its messages); at E = 0 and E > 0.
  std::size_t compared = 0;
  for (collective c : collectives::all_collectives())
    for (algorithm a : algorithms(c))
      for (int p : premise_ps())
        for (call_spec spec : calls_for(c, a, p))
          for (const std::size_t e : {std::size_t{0}, eager_bytes}) {
            spec.eager_bytes = e;
            spec.count = std::min(spec.count, premise_large);
            BOOST_TEST_CHECKPOINT(describe(spec));
            record_options one, two;
            one.with_data = two.with_data = true;
            one.seed = 1;
            two.seed = 2;
            const auto first = record_call(spec, one, true), second = record_call(spec, two, true),
                       dry = record_call(spec);
            for (int r = 0; r < p; ++r) {
              const auto i = static_cast<std::size_t>(r);
              BOOST_TEST((first[i] == second[i] && first[i] == dry[i]),
                         describe(spec) << ", rank " << r << ": the schedule changed with the values");
              ++compared;
            }
          }
  BOOST_TEST_MESSAGE(fmt::format("premise: {} rank schedules recorded three ways, all alike", compared));
}

BOOST_AUTO_TEST_CASE(only_the_v_trees_learn_counts_from_messages) {
  // gatherv's and scatterv's binomial trees send the counts, which only the root has, down the
  // tree: their schedules follow what they receive, and they are recorded with their messages
  // delivered. Any other algorithm found to depend on its messages' values is news: add it here
  // once its dependence is understood (and its recording delivered).
  std::vector<std::string> learning;
  for (collective c : collectives::all_collectives())
    for (algorithm a : algorithms(c))
      if (learns_from_messages(c, a))
        learning.push_back(fmt::format("{} {}", collectives::to_string(c), collectives::to_string(a)));
  BOOST_TEST(learning == (std::vector<std::string>{"gatherv binomial", "scatterv binomial"}),
             fmt::format("{}", fmt::join(learning, ", ")));
}

BOOST_AUTO_TEST_CASE(swing_peers_reach_every_rank_once_and_hand_over_one_run) {
  // Swing's premise (kit/swing.hpp) at every power of two up to 1024: each step pairs the ranks
  // (an involution at odd distance); two partners never hold the same rank's input, so after log p
  // steps every rank has reached every other exactly once; and in the block map a partner always
  // sits in the other half of the run being split, so every step hands over one run of positions.
  // The map checked is the one the algorithms use: built once per size, then kept.
  for (int pof2 = 1; pof2 <= proofs_max_p(); pof2 *= 2) {
    const detail::swing_map& map = detail::swing_map_of(pof2);
    BOOST_TEST(&detail::swing_map_of(pof2) == &map, "p = " << pof2 << ": the map was built again");
    const auto n = static_cast<std::size_t>(pof2);
    std::vector<std::vector<bool>> holds(n, std::vector<bool>(n, false));
    std::vector<bool> placed(n, false);
    for (int g = 0; g < pof2; ++g) {
      holds[static_cast<std::size_t>(g)][static_cast<std::size_t>(g)] = true;
      placed[static_cast<std::size_t>(map.position(g))] = true;
      BOOST_TEST(map.member(map.position(g)) == g, "p = " << pof2 << ", member " << g);
    }
    BOOST_TEST(std::count(placed.begin(), placed.end(), true) == pof2, "p = " << pof2 << ": not a permutation");
    int bad_pairs = 0, bad_runs = 0, twice = 0;
    for (int s = 0; s < map.steps(); ++s) {
      auto next = holds;
      const int half = pof2 >> (s + 1);
      for (int g = 0; g < pof2; ++g) {
        const int q = map.peer(g, s);
        if (map.peer(q, s) != g || q % 2 == g % 2) ++bad_pairs;
        if ((map.position(g) ^ map.position(q)) / half != 1) ++bad_runs;
        const auto &mine = holds[static_cast<std::size_t>(g)], &theirs = holds[static_cast<std::size_t>(q)];
        for (std::size_t r = 0; r < n; ++r) {
          if (mine[r] && theirs[r]) ++twice;
          next[static_cast<std::size_t>(g)][r] = mine[r] || theirs[r];
        }
      }
      holds = std::move(next);
    }
    int missing = 0;
    for (const auto& h : holds) missing += static_cast<int>(std::count(h.begin(), h.end(), false));
    BOOST_TEST(bad_pairs == 0, "p = " << pof2);
    BOOST_TEST(bad_runs == 0, "p = " << pof2);
    BOOST_TEST(twice == 0, "p = " << pof2);
    BOOST_TEST(missing == 0, "p = " << pof2);
  }
}

BOOST_AUTO_TEST_CASE(bine_tree_reaches_every_rank_once_in_ceil_log_p_steps) {
  // The Bine tree (kit/bine_tree.hpp) at every p up to 1024 and roots 0, 1, p/3, p/2 and p − 1:
  // every rank but the root has one parent, which lists it as a child at the step the rank
  // receives; a rank sends only after it receives, at most once a step; every rank is reached,
  // the last at step ⌈log₂ p⌉ − 1. At a power of two, the holders after each step are an aligned
  // run of swing_map positions (Swing's all-gather order restricted to the root's vector).
  for (int p = 1; p <= proofs_max_p(); ++p) {
    const int depth = static_cast<int>(std::bit_width(static_cast<unsigned>(p - 1)));
    const bool pof2 = std::has_single_bit(static_cast<unsigned>(p));
    const detail::swing_map map(static_cast<int>(std::bit_floor(static_cast<unsigned>(p))));
    for (const int root : std::unordered_set<int>{0, 1 % p, p / 3, p / 2, p - 1}) {
      std::vector<detail::bine_tree> trees;
      trees.reserve(static_cast<std::size_t>(p));
      for (int r = 0; r < p; ++r) trees.emplace_back(r, p, root);
      const auto tree = [&](int r) -> const detail::bine_tree& { return trees[static_cast<std::size_t>(r)]; };
      std::vector<int> listed(static_cast<std::size_t>(p), 0);
      int bad_parents = 0, bad_order = 0, bad_depth = 0, last_step = -1;
      for (int r = 0; r < p; ++r) {
        const detail::bine_tree& t = tree(r);
        if (t.steps != depth) ++bad_depth;
        if ((r == root) != (t.parent < 0)) ++bad_parents;
        int previous = t.parent_step;
        for (const detail::bine_tree::link& child : t.children) {
          if (child.rank < 0 || child.rank >= p) {
            ++bad_parents;
            continue;
          }
          ++listed[static_cast<std::size_t>(child.rank)];
          if (tree(child.rank).parent != r || tree(child.rank).parent_step != child.step) ++bad_parents;
          if (child.step <= previous || child.step >= depth) ++bad_order;
          previous = child.step;
        }
        last_step = std::max(last_step, t.parent_step);
      }
      int unreached = 0;
      for (int r = 0; r < p; ++r) unreached += listed[static_cast<std::size_t>(r)] != (r == root ? 0 : 1);
      BOOST_TEST(bad_parents == 0, "p = " << p << ", root " << root);
      BOOST_TEST(bad_order == 0, "p = " << p << ", root " << root);
      BOOST_TEST(bad_depth == 0, "p = " << p << ", root " << root);
      BOOST_TEST(unreached == 0, "p = " << p << ", root " << root);
      BOOST_TEST(last_step == depth - 1, "p = " << p << ", root " << root);
      if (!pof2) continue;
      int bad_runs = 0;
      for (int step = 0; step < depth; ++step) {
        std::vector<int> positions;
        for (int r = 0; r < p; ++r)
          if (r == root || tree(r).parent_step <= step) positions.push_back(map.position((r - root + p) % p));
        std::sort(positions.begin(), positions.end());
        const int run = static_cast<int>(positions.size());
        if (run != 2 << step || positions.front() % run != 0 ||
            positions.back() != positions.front() + run - 1)
          ++bad_runs;
      }
      BOOST_TEST(bad_runs == 0, "p = " << p << ", root " << root);
    }
  }
}

BOOST_AUTO_TEST_CASE(bine_tree_reaches_every_rank_once_along_circular_runs) {
  // gather_bine's and scatter_bine's premise (kit/bine_interval_tree.hpp) at every p up to 1024
  // and roots 0, 1, p/3, p/2 and p − 1: the root alone has no parent and covers every rank; every
  // other rank is its parent's child exactly once, with the interval it covers itself; a rank's
  // interval is its own rank and its children's intervals, which lie side by side in it without
  // wrapping (so an inner rank's scratch from its first rank on holds each child's run in one
  // piece); and the gather along it takes ⌈log₂ p⌉ rounds.
  int failures = 0;
  for (int p = 1; p <= proofs_max_p(); ++p) {
    const int depth_bound = std::bit_width(static_cast<unsigned>(p - 1));
    for (int root : {0, 1 % p, p / 3, p / 2, p - 1}) {
      std::vector<detail::bine_interval_tree> trees;
      trees.reserve(static_cast<std::size_t>(p));
      for (int r = 0; r < p; ++r) trees.emplace_back(r, p, root);
      const auto tree = [&](int r) -> const detail::bine_interval_tree& {
        return trees[static_cast<std::size_t>(r)];
      };
      std::vector<int> heard(static_cast<std::size_t>(p), 0);
      int bad = 0, deepest = 0;
      for (int r = 0; r < p; ++r) {
        const auto& t = tree(r);
        if ((t.parent < 0) != (r == root)) ++bad;
        if (r == root && t.length != p) ++bad;
        // The own rank and the children tile the interval: each at its offset, in one piece.
        std::vector<bool> covered(static_cast<std::size_t>(t.length), false);
        covered[static_cast<std::size_t>(t.offset_of(r))] = true;
        for (const auto& child : t.children) {
          ++heard[static_cast<std::size_t>(child.rank)];
          const auto& mine = tree(child.rank);
          if (mine.parent != r || mine.first != child.first || mine.length != child.length) ++bad;
          const int at = t.offset_of(child.first);
          if (at + child.length > t.length) {
            ++bad;
            continue;
          }
          for (int i = at; i < at + child.length; ++i) {
            if (covered[static_cast<std::size_t>(i)]) ++bad;
            covered[static_cast<std::size_t>(i)] = true;
          }
        }
        if (std::count(covered.begin(), covered.end(), false) != 0) ++bad;
        int depth = 0;
        for (int up = r; tree(up).parent >= 0 && depth <= p; up = tree(up).parent) ++depth;
        deepest = std::max(deepest, depth);
      }
      // Rounds: a rank hears its children one after the other, each once it has sent; the
      // root's last receive ends round ⌈log₂ p⌉ (a folded-out rank's message is a round of its
      // own, so the tree may be shallower than that in hops, never deeper).
      std::vector<int> rounds_of(static_cast<std::size_t>(p), -1);
      const auto rounds = [&](const auto& self, int r) -> int {
        int& known = rounds_of[static_cast<std::size_t>(r)];
        if (known < 0) {
          known = 0;
          for (const auto& child : tree(r).children) known = std::max(known, self(self, child.rank)) + 1;
        }
        return known;
      };
      if (deepest > depth_bound || rounds(rounds, root) != depth_bound) ++bad;
      for (int r = 0; r < p; ++r)
        if (heard[static_cast<std::size_t>(r)] != (r == root ? 0 : 1)) ++bad;
      BOOST_TEST(bad == 0, "p = " << p << ", root " << root << ": " << bad << " faults");
      failures += bad;
    }
  }
  BOOST_TEST(failures == 0);
}

BOOST_AUTO_TEST_CASE(knomial_tree_tiles_intervals_in_rank_order) {
  // The tree of every tree algorithm (kit/binomial_tree.hpp) at radix 2, 3, 4 and 7, every p up to
  // 1024 and roots 0, 1, p/3, p/2 and p − 1: the root alone has no parent and its subtree is every
  // rank; every other rank is its parent's child exactly once, with the interval it heads itself;
  // read in reverse (as reduce and gather hear them), each child's interval lies next to what the
  // rank holds so far, growing from its own rank to its whole interval (reduce's rank order); and
  // the root hears its last child after at most (k − 1)·⌈log_k p⌉ rounds, exactly ⌈log₂ p⌉ at k = 2.
  int failures = 0;
  for (const int radix : {2, 3, 4, 7}) {
    for (int p = 1; p <= proofs_max_p(); ++p) {
      int levels = 0;
      for (long long reach = 1; reach < p; reach *= radix) ++levels;
      const int round_bound = radix == 2 ? levels : (radix - 1) * levels;
      for (const int root : std::unordered_set<int>{0, 1 % p, p / 3, p / 2, p - 1}) {
        std::vector<detail::binomial_tree> trees;
        trees.reserve(static_cast<std::size_t>(p));
        for (int r = 0; r < p; ++r) trees.emplace_back(r, p, root, radix);
        const auto tree = [&](int r) -> const detail::binomial_tree& {
          return trees[static_cast<std::size_t>(r)];
        };
        std::vector<int> heard(static_cast<std::size_t>(p), 0);
        int bad = 0;
        for (int r = 0; r < p; ++r) {
          const detail::binomial_tree& t = tree(r);
          if ((t.parent < 0) != (r == root)) ++bad;
          if (r == root ? t.first != 0 || t.end != p : t.first != r) ++bad;
          int lo = r, hi = r + 1;
          for (auto child = t.children.rbegin(); child != t.children.rend(); ++child) {
            ++heard[static_cast<std::size_t>(child->rank)];
            const detail::binomial_tree& mine = tree(child->rank);
            if (mine.parent != r || mine.first != child->first || mine.end != child->end) ++bad;
            if (child->first == hi)
              hi = child->end;
            else if (child->end == lo)
              lo = child->first;
            else
              ++bad;
          }
          if (lo != t.first || hi != t.end) ++bad;
        }
        for (int r = 0; r < p; ++r)
          if (heard[static_cast<std::size_t>(r)] != (r == root ? 0 : 1)) ++bad;
        // Rounds as a reduce runs them: a rank hears its children one after the other, each once
        // it has heard its own.
        std::vector<int> rounds_of(static_cast<std::size_t>(p), -1);
        const auto rounds = [&](const auto& self, int r) -> int {
          int& known = rounds_of[static_cast<std::size_t>(r)];
          if (known < 0) {
            known = 0;
            for (auto child = tree(r).children.rbegin(); child != tree(r).children.rend(); ++child)
              known = std::max(known, self(self, child->rank)) + 1;
          }
          return known;
        };
        const int root_rounds = rounds(rounds, root);
        if (root_rounds > round_bound || (radix == 2 && root_rounds != levels)) ++bad;
        BOOST_TEST(bad == 0,
                   "radix " << radix << ", p = " << p << ", root " << root << ": " << bad << " faults");
        failures += bad;
      }
    }
  }
  BOOST_TEST(failures == 0);
}

BOOST_AUTO_TEST_CASE(swing_scatter_hands_each_member_its_run_once_from_a_holder) {
  // broadcast_bine_bandwidth's scatter (and, reversed, reduce_bine_bandwidth's gather) at every
  // power of two up to 1024 and every root: at step s each member that holds a run (the root from
  // the start, every other member after its swing_scatter_step) hands the other half of it to its
  // partner, which must be a member whose scatter step is s and whose position lies in that half;
  // so every member but the root receives exactly once, from a holder, the run around its position.
  for (int pof2 = 1; pof2 <= proofs_max_p(); pof2 *= 2) {
    const detail::swing_map map(pof2);
    const auto n = static_cast<std::size_t>(pof2);
    int bad_roots = 0, not_a_receiver = 0, outside_the_run = 0, not_once = 0;
    for (int root = 0; root < pof2; ++root) {
      std::vector<int> step(n), received(n, 0);
      for (int g = 0; g < pof2; ++g)
        step[static_cast<std::size_t>(g)] = detail::swing_scatter_step(map, g, root);
      if (step[static_cast<std::size_t>(root)] != -1) ++bad_roots;
      received[static_cast<std::size_t>(root)] = 1;
      for (int s = 0; s < map.steps(); ++s) {
        const int half = pof2 >> (s + 1);
        for (int g = 0; g < pof2; ++g) {
          if (step[static_cast<std::size_t>(g)] >= s) continue;
          const int q = map.peer(g, s);
          if (step[static_cast<std::size_t>(q)] != s) ++not_a_receiver;
          if ((map.position(g) ^ map.position(q)) / half != 1) ++outside_the_run;
          ++received[static_cast<std::size_t>(q)];
        }
      }
      not_once += static_cast<int>(pof2 - std::count(received.begin(), received.end(), 1));
    }
    BOOST_TEST(bad_roots == 0, "p = " << pof2);
    BOOST_TEST(not_a_receiver == 0, "p = " << pof2);
    BOOST_TEST(outside_the_run == 0, "p = " << pof2);
    BOOST_TEST(not_once == 0, "p = " << pof2);
  }
}

BOOST_AUTO_TEST_CASE(exchange_halves_say_which_side_went_first) {
  // Recursive doubling at p = 4: two steps of pairings; with E = 0 one side of each pair sends
  // first and the other receives first.
  call_spec spec;
  spec.coll = collective::allreduce;
  spec.alg = algorithm::recursive_doubling;
  spec.p = 4;
  spec.count = 8;
  std::vector<rank_schedule> all;
  for (int r = 0; r < spec.p; ++r) all.push_back(record(spec, r, {.locals = false}));
  for (int r = 0; r < spec.p; ++r) {
    const rank_schedule& s = all[static_cast<std::size_t>(r)];
    BOOST_TEST_REQUIRE(s.size() == 4u);
    for (std::size_t i = 0; i < s.size(); i += 2) {
      BOOST_TEST((s[i].exchange && s[i + 1].exchange));
      BOOST_TEST(s[i].peer == s[i + 1].peer);
      BOOST_TEST(s[i].bytes == 32u);
      // The partner's exchange went the other way round.
      const rank_schedule& t = all[static_cast<std::size_t>(s[i].peer)];
      BOOST_TEST((t[i].kind != s[i].kind),
                 "ranks " << r << " and " << s[i].peer << " both " << describe(s[i]));
    }
  }
  BOOST_TEST(replay(all, model::none()).ok);
}

BOOST_AUTO_TEST_CASE(exchanges_at_most_e_send_first_on_both_sides) {
  // Recursive doubling at p = 4 exchanges 32 B: with E = 32 every rank sends first (one latency),
  // with E = 31 one side of each pair receives first. Both replay without buffering only when
  // ordered, and eager up to E.
  call_spec spec;
  spec.coll = collective::allreduce;
  spec.alg = algorithm::recursive_doubling;
  spec.p = 4;
  spec.count = 8;
  for (const std::size_t e : {std::size_t{31}, std::size_t{32}}) {
    spec.eager_bytes = e;
    const auto all = record_call(spec, {.locals = false});
    bool every_rank_sends_first = true;
    for (const rank_schedule& s : all)
      for (std::size_t i = 0; i < s.size(); i += 2) every_rank_sends_first &= s[i].kind == op::send;
    BOOST_TEST(every_rank_sends_first == (e == 32));
    BOOST_TEST(replay(all, model::eager(e)).ok);
    BOOST_TEST(replay(all, model::none()).ok == (e == 31));
  }
}

BOOST_AUTO_TEST_CASE(one_step_mixes_eager_and_ordered_exchanges) {
  // alltoallv pairwise at p = 6, blocks of 2 and 200 elements: with E = 100 B, some pairs of one
  // step both send first and others take turns, and the call completes eager up to E.
  call_spec spec;
  spec.coll = collective::alltoallv;
  spec.alg = algorithm::pairwise;
  spec.p = 6;
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) spec.counts.push_back((i + j) % 2 == 0 ? 200 : 2);
  spec.eager_bytes = 100;
  const auto all = record_call(spec, {.locals = false});
  // Step 1 (shift by 1): rank r sends counts[r][r+1] = 2 elements (8 B), eager; in step 2 it sends
  // 800 B, ordered. Count, per step, the ranks that sent first.
  std::vector<int> first_per_step(6, 0);
  for (const rank_schedule& s : all)
    for (std::size_t i = 0, step = 1; i + 1 < s.size(); ++i)
      if (s[i].exchange && s[i + 1].exchange) {
        first_per_step[step++] += s[i].kind == op::send;
        ++i;
      }
  BOOST_TEST(first_per_step[1] == 6);  // all eager
  BOOST_TEST(first_per_step[2] < 6);   // ordered
  BOOST_TEST(replay(all, model::eager(100)).ok);
  // Uneven within a step: rank 3's block to 0 large, the rest of shift 3 (the pairs r, r + 3) small.
  call_spec mixed = spec;
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 6; ++j) mixed.counts[i * 6 + j] = i == 3 && j == 0 ? 200 : 2;
  const auto mixed_all = record_call(mixed, {.locals = false});
  int sent_first = 0;
  for (const rank_schedule& s : mixed_all)
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
      if (s[i].exchange && s[i].peer == (&s - mixed_all.data() + 3) % 6 && s[i + 1].exchange) {
        sent_first += s[i].kind == op::send;
        break;
      }
  // Rank 3's 800 B waits its turn (of the pair 0, 3 the lower sends first), the other five go eager.
  BOOST_TEST(sent_first == 5);
  BOOST_TEST(replay(mixed_all, model::eager(100)).ok);
}

BOOST_AUTO_TEST_CASE(exchanges_above_e_across_hosts_go_in_segments) {
  // Ring allgather, blocks of 12,000 B, E = 1000 B on a host and 4096 B across: a block to a rank
  // on another host goes as segments of at most 4096 B, one on the same host whole (ordered).
  // Ranks 0-2 and 3-5 on two hosts: the ring crosses at 2 → 3 and 5 → 0.
  const call_spec spec{.coll = collective::allgather, .alg = algorithm::ring, .p = 6, .count = 3000,
                       .hosts = {2, false}, .eager_bytes = 1000, .eager_bytes_across = 4096};
  const auto all = record_call(spec, {.locals = false});
  std::size_t segments = 0, whole = 0, other = 0;
  for (int r = 0; r < spec.p; ++r)
    for (const step& x : all[static_cast<std::size_t>(r)])
      if (x.kind == op::send) {
        const bool across = host_of(spec, r) != host_of(spec, x.peer);
        if (across && x.bytes <= 4096) ++segments;
        else if (!across && x.bytes == 12000) ++whole;
        else ++other;
      }
  BOOST_TEST(segments == 2u * 5 * 3);  // 2 crossing ranks × 5 steps × ⌈12000 / 4096⌉
  BOOST_TEST(whole == 4u * 5);
  BOOST_TEST(other == 0u);
  BOOST_TEST(replay(all, model::eager_as(spec)).ok);
  // Every exchange algorithm, on uneven and round-robin hosts, with messages on both sides of E:
  // the segments never make a step wait forever.
  for (const auto& [c, a] : {std::pair{collective::allgather, algorithm::ring},
                             {collective::allgather, algorithm::recursive_doubling},
                             {collective::allgather, algorithm::bruck},
                             {collective::alltoall, algorithm::pairwise},
                             {collective::reduce_scatter, algorithm::ring},
                             {collective::reduce_scatter, algorithm::pairwise},
                             {collective::reduce_scatter, algorithm::recursive_halving},
                             {collective::allreduce, algorithm::ring},
                             {collective::allreduce, algorithm::rabenseifner},
                             {collective::allreduce, algorithm::recursive_doubling}})
    for (const int p : {3, 5, 6, 7, 8, 12})
      for (const host_spec h : {host_spec{2, false}, host_spec{3, false}, host_spec{2, true}, host_spec{3, true}})
        for (const std::size_t count : {std::size_t{10}, std::size_t{700}, std::size_t{5000}}) {
          const call_spec v{.coll = c, .alg = a, .p = p, .count = count, .hosts = h, .eager_bytes = 1000,
                            .eager_bytes_across = 4096};
          const verdict result = replay(record_call(v, {.locals = false}), model::eager_as(v));
          BOOST_TEST(result.ok, describe(v) << ": " << result.problem);
        }
}

BOOST_AUTO_TEST_CASE(matrix_every_algorithm_every_p_both_models) {
  std::vector<std::pair<collective, algorithm>> work;
  for (collective c : collectives::all_collectives())
    for (algorithm a : algorithms(c)) work.emplace_back(c, a);
  const std::vector<int> ps = matrix_ps();
  // One task per (p, collective, algorithm), largest p first so that the threads end together.
  std::vector<std::tuple<int, collective, algorithm>> tasks;
  for (auto it = ps.rbegin(); it != ps.rend(); ++it)
    for (const auto& [c, a] : work) tasks.emplace_back(*it, c, a);

  tally t;
  const auto start = std::chrono::steady_clock::now();
  const unsigned threads = run_on_two_threads(tasks.size(), [&](std::size_t i) {
    const auto [p, c, a] = tasks[i];
    for (int k : testing::radixes_to_check(c, a, p))
      for (call_spec spec : calls_for(c, a, p)) {
        spec.radix = k;
        check_models(spec, t);
      }
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  fmt::print(
      "schedules: {} calls replayed ({} rank schedules, {} messages matched) in {:.1f} s on {} thread{}: "
      "{} algorithms of {} collectives at {} process counts ({} … {}), counts 0, 1, p−1, p, p+1, large "
      "and the v-variants' uneven and empty blocks; each call with E = 0 and E = {} B; up to p = {}, {} "
      "calls also with E between their own message sizes and {} with E = {} B on a host and {} B across "
      "hosts\n",
      t.calls.load(), t.rank_schedules.load(), t.messages.load(), seconds, threads, threads == 1 ? "" : "s",
      work.size(), collectives::all_collectives().size(), ps.size(), ps.front(), ps.back(), eager_bytes,
      extra_models_up_to, t.straddled.load(), t.across.load(), eager_bytes, eager_across);
  for (std::size_t i = 0; i < t.failures.size() && i < 20; ++i) BOOST_ERROR(t.failures[i]);
  BOOST_TEST(t.failures.empty(), t.failures.size() << " calls failed");
}

// ---------------------------------------------------------------------------------------------
// Planted faults: the checker must find them.

namespace {

// Every rank sends to the next and then receives from the previous: correct only while MPI
// buffers the message.
void ring_relying_on_buffering(const detail::call& c) {
  const int p = c.size(), r = c.rank();
  c.net.send((r + 1) % p, c.send, c.bytes(c.count));
  c.net.recv((r - 1 + p) % p, c.recv, c.bytes(c.count));
}

// Rank 0 waits for a message rank 1 never sends.
void missing_send(const detail::call& c) {
  if (c.rank() == 0) c.net.recv(1, c.recv, c.bytes(c.count));
}

std::vector<rank_schedule> record_all(const call_spec& spec, detail::algorithm_fn fn = nullptr) {
  std::vector<rank_schedule> all;
  for (int r = 0; r < spec.p; ++r) all.push_back(record(spec, r, {.locals = false, .run = fn}));
  return all;
}

call_spec planted(int p, std::size_t count) {
  call_spec spec;
  spec.coll = collective::allreduce;
  spec.alg = algorithm::naive;
  spec.p = p;
  spec.count = count;
  return spec;
}

}  // namespace

BOOST_AUTO_TEST_CASE(planted_cycle_of_sends_is_a_deadlock_without_buffering) {
  const auto all = record_all(planted(4, 512), &ring_relying_on_buffering);  // 2 KiB messages
  const verdict none = replay(all, model::none());
  BOOST_TEST_MESSAGE(none.problem);
  BOOST_TEST(!none.ok);
  BOOST_TEST(none.waiting == (std::vector<int>{0, 1, 2, 3}));
  BOOST_TEST(none.cycle == (std::vector<int>{0, 1, 2, 3, 0}));
  BOOST_TEST(none.problem.find("rank 0, step 0 of 2: send 2048 B to 1") != std::string::npos, none.problem);
  BOOST_TEST(
      none.problem.find("cycle: 0 (step 0) → 1 (step 0) → 2 (step 0) → 3 (step 0) → 0") != std::string::npos,
      none.problem);
  // Eager up to the message size it completes; one byte below, it hangs again.
  BOOST_TEST(replay(all, model::eager(2048)).ok);
  BOOST_TEST(!replay(all, model::eager(2047)).ok);
}

BOOST_AUTO_TEST_CASE(planted_cycle_across_hosts_follows_e_across) {
  // The same ring at p = 2 on two hosts: only E across hosts counts.
  call_spec spec = planted(2, 512);
  spec.hosts = {2, false};
  spec.eager_bytes = 4096;
  const auto all = record_all(spec, &ring_relying_on_buffering);
  spec.eager_bytes_across = 2047;
  const verdict hangs = replay(all, model::eager_as(spec));
  BOOST_TEST(!hangs.ok);
  BOOST_TEST(hangs.problem.find("eager up to E = 4096 B on a host, 2047 B across hosts") != std::string::npos,
             hangs.problem);
  spec.eager_bytes_across = 2048;
  BOOST_TEST(replay(all, model::eager_as(spec)).ok);
}

BOOST_AUTO_TEST_CASE(planted_swap_in_a_real_schedule_is_found) {
  // Recursive doubling at p = 4: make rank 1 send first in its first exchange, as rank 0 does.
  call_spec spec = planted(4, 1000);
  spec.alg = algorithm::recursive_doubling;
  auto all = record_all(spec);
  BOOST_TEST_REQUIRE(replay(all, model::none()).ok);
  rank_schedule& one = all[1];
  BOOST_TEST_REQUIRE((one[0].kind == op::recv && one[1].kind == op::send && one[0].peer == 0));
  std::swap(one[0], one[1]);
  const verdict v = replay(all, model::none());
  BOOST_TEST_MESSAGE(v.problem);
  BOOST_TEST(!v.ok);
  BOOST_TEST((v.cycle == std::vector<int>{0, 1, 0}));
  BOOST_TEST(v.problem.find("rank 1, step 0 of 4: send 4000 B to 0 (exchange)") != std::string::npos,
             v.problem);
  BOOST_TEST(replay(all, model::eager(4000)).ok);
}

BOOST_AUTO_TEST_CASE(planted_size_mismatch_and_lost_messages_are_found) {
  call_spec spec = planted(5, 10);
  spec.alg = algorithm::ring;
  auto all = record_all(spec);
  BOOST_TEST_REQUIRE(replay(all, model::none()).ok);
  {
    auto bad = all;
    const auto it =
        std::find_if(bad[3].begin(), bad[3].end(), [](const step& s) { return s.kind == op::recv; });
    it->bytes += 4;
    const verdict v = replay(bad, model::none());
    BOOST_TEST(!v.ok);
    BOOST_TEST(v.problem.find("size mismatch: rank 3") != std::string::npos, v.problem);
  }
  {
    // Rank 2 forgets its last receive: eager, the message is left behind; without buffering its
    // sender waits for a rank that has finished.
    auto bad = all;
    const auto it =
        std::find_if(bad[2].rbegin(), bad[2].rend(), [](const step& s) { return s.kind == op::recv; });
    bad[2].erase(std::next(it).base());
    const verdict eager = replay(bad, model::eager(1 << 20));
    BOOST_TEST(!eager.ok);
    BOOST_TEST(eager.problem.find("never received: rank 1") != std::string::npos, eager.problem);
    const verdict none = replay(bad, model::none());
    BOOST_TEST(!none.ok);
    BOOST_TEST(none.waiting == std::vector<int>{1});
    BOOST_TEST(none.problem.find("which has finished") != std::string::npos, none.problem);
  }
  {
    const auto lost = record_all(planted(2, 3), &missing_send);
    const verdict v = replay(lost, model::eager(1 << 20));
    BOOST_TEST(!v.ok);
    BOOST_TEST(v.waiting == std::vector<int>{0});
    BOOST_TEST(v.problem.find("rank 0 waits for rank 1, which has finished without the message") !=
                   std::string::npos,
               v.problem);
  }
}
