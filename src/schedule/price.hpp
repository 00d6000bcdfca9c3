// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The price of a recorded schedule: the p schedules of one call replayed together (the checker's
// event loop, check.cpp) with a clock per rank, each message timed LogGP-style on a platform
// (wire time by where the two ranks sit, eager sends and rendezvous, a rank's and a host's shared
// link, reductions and copies, ranks sharing cores). The rules, each with its reason:
// docs/algorithms.md, "The price of a schedule". The network's shared links are not modelled;
// the price of a call is the time from a common start to the last rank's end.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "schedule/check.hpp"
#include "schedule/schedule.hpp"

namespace collectives::detail::schedule {

/// A message posted in a priced replay: when it was sent (a message that shares the sender's link)
/// or may leave (one that waits for the link), and its place among the eager messages whose bytes
/// share the sender's link (−1: none).
struct posting {
  double at = 0;
  int flow = -1;
};

/// Where ranks sit and what a message costs between two of them.
struct platform {
  std::string name;
  int ranks_per_host = 1;    ///< consecutive ranks share a host (as scripts/mpirun/simulate fills them)
  std::vector<int> host_of;  ///< where set, each rank's host instead (a measured layout)
  int hosts = 0;             ///< hosts the platform has (0: as many as a call needs)
  int hosts_per_switch = 0;  ///< a fat tree: hosts under one leaf switch (0: every host on one switch)
  std::vector<int> torus;    ///< a torus of hosts: its dimensions (empty: a fat tree)
  double link_latency = 0;   ///< s per link crossed between hosts
  double link_byte = 0;      ///< s per byte between hosts (the route's slowest link)
  double host_latency = 0;   ///< s, two ranks on one host
  double host_byte = 0;      ///< s per byte, two ranks on one host
  double sharing_bytes = 0;  ///< S: messages share a link by their route's latency + S bytes a link
  double send_overhead = 0;  ///< o_s: processor time of an eager send
  double recv_overhead = 0;  ///< o_r: processor time of receiving an eager message
  /// Where set, a message's wire time by its bytes, whether it sends the caller's untouched input
  /// (step::input), whether it crosses hosts and whether it is half of an exchange (step::exchange),
  /// instead of the latencies and bytes above.
  std::function<double(std::uint64_t bytes, bool input, bool across, bool exchange)> message;
  /// Where set, what a message's route latency and bandwidth are multiplied by at its bytes (SMPI's
  /// lat-factor and bw-factor); 1 and 1 where not.
  std::function<std::pair<double, double>(std::uint64_t bytes)> factors;
  double gamma = 0;          ///< s per byte reduced
  double delta = 0;          ///< s per byte copied locally
  std::size_t eager_bytes = 0;  ///< E (0: every send waits for its receive)
  /// E between hosts, where the library knows it and cuts exchanges with other hosts above it into
  /// segments of it (0: eager_bytes, no segments)
  std::size_t eager_across = 0;
  /// Where eager_across is set, whether those exchanges go as segments of it
  /// (eager_limits::segments_across); else E across hosts is eager_across, uncut.
  bool segments_across = true;
  /// An eager message starts to move when its receive is posted (SMPI), not when it is sent.
  bool eager_moves_at_match = false;
  /// A rank's messages leave a whole message time apart, not their bytes' time apart (on one node
  /// the sender copies a message and signals its receiver itself).
  bool whole_messages_apart = false;
  /// The cores the ranks of one host share (0: a core each). One host only.
  int cores = 0;

  /// The host of `rank`.
  int host(int rank) const;
  /// Links a message from rank `from` to rank `to` crosses (0: one host).
  int links(int from, int to) const;
  /// Seconds on the wire of the message `send` of rank `from`, α + m·β; with bytes = 0 its latency.
  double wire(int from, const step& send, bool latency_only = false) const;
};

/// "fat-tree-256: 256 hosts per …": the parameters in one line.
std::string describe(const platform& net);

/// The clocks of a priced replay: one per rank, moved by every step as the header says.
class rank_clocks {
 public:
  rank_clocks(const platform& net, std::size_t elem_size) : net_(net), elem_size_(elem_size) {}
  void start(std::size_t p);
  /// Posts the message: an eager one whose bytes share the link joins the rank's run of them (its
  /// sharing priced at the match); any other leaves at the sender's clock, or once the link is free.
  posting send(int rank, const step& s, bool eager);
  /// `rank` receives the message `sent` that `sender` posted as `posted`.
  void match(int rank, const step& sent, int sender, bool eager, posting posted);
  void local(int rank, const step& s);
  std::span<const double> clocks() const { return t_; }
  /// Seconds of processor time of every message, reduction and copy so far.
  double work() const { return work_; }
  /// Whether a message waited for a peer's next receive before the replay knew the peer's time
  /// between receives; then keep_gaps() has the next start() keep those this replay learned.
  bool gap_guessed() const { return gap_guessed_; }
  void keep_gaps() { keep_gaps_ = true; }

 private:
  const platform& net_;
  std::size_t elem_size_;
  std::vector<double> t_;
  std::vector<double> out_free_;  ///< when each rank's link has sent what it was given
  /// The eager messages whose bytes share their sender's link: those a rank sends with no receive
  /// between them (the replay runs a rank until it blocks at a receive or a rendezvous send, so a
  /// run of them is posted whole before any of them is received), priced when the first is
  /// received, and again at each receive where eager messages move at the match.
  struct flow {
    double start;    ///< when its bytes may take the link: a latency after the send, or later
    double latency;  ///< its route's
    double seconds;  ///< its bytes' time alone on the link
    double weight;   ///< its share of the link against the others': 1 / its route's penalty
    int first;       ///< the first flow of its run
    int peer;        ///< its receiver
    double receive = -HUGE_VAL;  ///< when its receive was posted, once the replay has met it
    double end = -1;  ///< when its last byte has left (−1: not yet priced)
  };
  /// Kept per thread: a tuner pricing many calls reuses its memory (one rank_clocks at a time).
  std::vector<flow>& flows_ = thread_flows();
  static std::vector<flow>& thread_flows() {
    thread_local std::vector<flow> flows;
    return flows;
  }
  std::vector<int> run_first_;  ///< per rank, the first flow of the run it is sending (−1: none)
  std::vector<double> run_link_free_;  ///< per rank, when its link has sent the runs before
  std::vector<double> matched_;  ///< per rank, its clock after its last receive (−1: none yet)
  std::vector<double> receive_gap_;  ///< per rank, its time from one receive to posting the next (−1: unknown)
  bool gap_guessed_ = false, keep_gaps_ = false;
  /// Each flow of the run that starts at flows_[first] gets its end: the link shared among the
  /// flows in flight by their weights.
  void share_link(int first);
  /// One direction of a host's link: the intervals in which it carries a message's bytes, in
  /// order. The replay meets messages in an order of its own, not in time order, so a message
  /// takes the first gap from its start on that fits it.
  class link_calendar {
   public:
    /// The earliest start ≥ `ready` of `seconds` of bytes that fit between the intervals taken.
    double first_gap(double ready, double seconds) const;
    void take(double start, double seconds);

   private:
    std::vector<std::pair<double, double>> busy_;
  };
  /// Per host: its ranks, and its link's two directions.
  std::vector<int> ranks_on_host_;
  std::vector<link_calendar> host_out_, host_in_;
  double work_ = 0;

  /// When a message from `sender` to `receiver` that could start at `ready` starts, and its hosts'
  /// links busy until it is through, where either host is shared.
  double through_host_links(int sender, int receiver, const step& sent, double ready);
};

/// The checker's replay (check.hpp) with the clocks moved by every step.
verdict replay_timed(std::span<const rank_schedule> ranks, const model& m, rank_clocks& clock);

/// The seconds of one call: `spec` recorded (with the platform's E, and its hosts unless it has a
/// measured layout, `host_of`, which `spec.hosts` then describes) and replayed on `net`. Throws
/// collectives::error when the schedules do not run (a deadlock, a mismatch: the checker's verdict).
double price(const call_spec& spec, const platform& net);

/// The same for schedules already recorded (with reductions and copies, `elem_size`-byte elements).
double price(std::span<const rank_schedule> ranks, const platform& net, std::size_t elem_size);

}  // namespace collectives::detail::schedule
