// SPDX-License-Identifier: BSD-3-Clause
// The price of recorded schedules (src/schedule/price.hpp), without MPI: calls whose time is known
// by hand — a ping-pong with and without eager sends, the ring all-gather at p = 4, a message by
// the distance between its ranks, a host's link shared by its ranks, recursive doubling across a
// fat tree's spine, an exchange above E in segments, reductions and copies — and the price of a
// deadlock refused.

#define BOOST_TEST_MODULE schedule_price
#include <boost/test/unit_test.hpp>
#include <collectives/algorithm.hpp>
#include <collectives/error.hpp>
#include <vector>

#include "schedule/price.hpp"
#include "schedule/schedule.hpp"

namespace {

using collectives::algorithm;
using collectives::collective;
using namespace collectives::detail::schedule;

// α 1 µs + 1 ns per byte on one host; the network: 0.5 µs a link, 0.1 ns per byte.
platform test_platform() {
  platform net;
  net.name = "test";
  net.ranks_per_host = 2;
  net.hosts_per_switch = 2;
  net.host_latency = 1e-6;
  net.host_byte = 1e-9;
  net.link_latency = 0.5e-6;
  net.link_byte = 0.1e-9;
  return net;
}

// Four ranks on the host of test_platform (1 µs, 1 ns a byte), every send of up to 4 KiB eager.
platform one_host_eager(bool moves_at_match) {
  platform net = test_platform();
  net.ranks_per_host = 4;
  net.eager_bytes = 4096;
  net.eager_moves_at_match = moves_at_match;
  return net;
}

step send(int to, std::uint64_t bytes) { return {op::send, false, 0, false, to, bytes}; }
step recv(int from, std::uint64_t bytes) { return {op::recv, false, 0, false, from, bytes}; }

std::vector<rank_schedule> ping_pong(std::uint64_t bytes) {
  return {{send(1, bytes), recv(1, bytes)}, {recv(0, bytes), send(0, bytes)}};
}

}  // namespace

BOOST_AUTO_TEST_CASE(ping_pong_is_two_messages) {
  platform net = test_platform();
  const double wire = 1e-6 + 1000 * 1e-9;
  // Rendezvous (E = 0): each message takes its wire time once both sides are there.
  BOOST_TEST(price(ping_pong(1000), net, 1) == 2 * wire, boost::test_tools::tolerance(1e-12));
  // Eager: each side pays its overheads around the wire time, whether or not the message waits for
  // its receive to be posted (here the receive is always posted first).
  net.eager_bytes = 1000;
  net.send_overhead = 0.3e-6;
  net.recv_overhead = 0.2e-6;
  const double eager = 2 * (0.3e-6 + wire + 0.2e-6);
  BOOST_TEST(price(ping_pong(1000), net, 1) == eager, boost::test_tools::tolerance(1e-12));
  net.eager_moves_at_match = true;
  BOOST_TEST(price(ping_pong(1000), net, 1) == eager, boost::test_tools::tolerance(1e-12));
  // One byte over E: rendezvous again, no overheads.
  BOOST_TEST(price(ping_pong(1001), net, 1) == 2 * (1e-6 + 1001 * 1e-9), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(an_eager_message_moves_at_its_send_or_at_its_match) {
  // Rank 1 works 5 µs (a copy) before it receives a 1000-byte eager message sent at 0.
  platform net = test_platform();
  net.eager_bytes = 4096;
  net.delta = 5e-6 / 1000;
  const std::vector<rank_schedule> late{{send(1, 1000)}, {{op::copy, false, 0, false, -1, 1000}, recv(0, 1000)}};
  const double wire = 1e-6 + 1000 * 1e-9;
  // Sent at once, the message is there before the receive: the receive costs nothing more.
  BOOST_TEST(price(late, net, 1) == 5e-6, boost::test_tools::tolerance(1e-12));
  net.eager_moves_at_match = true;
  BOOST_TEST(price(late, net, 1) == 5e-6 + wire, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(alpha_follows_the_distance) {
  const platform net = test_platform();  // 2 ranks a host, 2 hosts a leaf switch
  BOOST_TEST(net.links(0, 1) == 0);      // one host
  BOOST_TEST(net.links(0, 2) == 2);      // one switch
  BOOST_TEST(net.links(0, 4) == 4);      // through the spine
  BOOST_TEST(net.wire(1, send(3, 0)) == 1e-6, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(net.wire(5, send(0, 1000)) == 2e-6 + 1000 * 0.1e-9, boost::test_tools::tolerance(1e-12));
  platform torus = net;
  torus.ranks_per_host = 1;
  torus.torus = {4, 4};
  BOOST_TEST(torus.links(0, 3) == 1);   // around the ring of the first dimension
  BOOST_TEST(torus.links(0, 10) == 4);  // (0, 0) to (2, 2)
}

BOOST_AUTO_TEST_CASE(the_ranks_of_a_host_share_its_link) {
  // Hosts of two ranks: ranks 0 and 1 each send 1000 bytes to ranks 2 and 3 on the next host
  // (2 links, 1 µs; 0.1 µs of bytes). Sent at once, the second message's bytes wait for the first's.
  const platform net = test_platform();
  const std::vector<rank_schedule> both{{send(2, 1000)}, {send(3, 1000)}, {recv(0, 1000)}, {recv(1, 1000)}};
  BOOST_TEST(price(both, net, 1) == 1.2e-6, boost::test_tools::tolerance(1e-12));
  // Rank 0 first copies for 5 µs: rank 1's message passes before it, though the replay may meet
  // rank 0's first.
  platform copying = net;
  copying.delta = 5e-6 / 1000;
  const std::vector<rank_schedule> apart{{{op::copy, false, 0, false, -1, 1000}, send(2, 1000)},
                                         {send(3, 1000)},
                                         {recv(0, 1000)},
                                         {recv(1, 1000)}};
  BOOST_TEST(price(apart, copying, 1) == 6.1e-6, boost::test_tools::tolerance(1e-12));
  // One rank a host: every rank has its link to itself.
  platform alone = net;
  alone.ranks_per_host = 1;
  alone.hosts_per_switch = 0;
  BOOST_TEST(price(both, alone, 1) == 1.1e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(ring_allgather_at_p4_costs_its_steps) {
  // p − 1 = 3 steps of one block each way. Without buffering every step is an ordered exchange,
  // one side sends and then the other: 2 messages a step. Eager, both sides send first: one.
  platform net = test_platform();
  net.ranks_per_host = 4;  // one host: every message costs the same
  call_spec spec;
  spec.coll = collective::allgather;
  spec.alg = algorithm::ring;
  spec.p = 4;
  spec.count = 250;  // 1000-byte blocks
  const double wire = 1e-6 + 1000 * 1e-9;
  BOOST_TEST(price(spec, net) == 3 * 2 * wire, boost::test_tools::tolerance(1e-12));
  net.eager_bytes = 1000;
  net.send_overhead = 0.3e-6;
  net.recv_overhead = 0.2e-6;
  BOOST_TEST(price(spec, net) == 3 * (0.3e-6 + wire + 0.2e-6), boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(reductions_and_copies_cost_gamma_and_delta) {
  // Reduce at p = 2: rank 1 sends its vector, the root reduces it into its own (γ per byte).
  platform net = test_platform();
  net.gamma = 2e-9;
  call_spec spec;
  spec.coll = collective::reduce;
  spec.alg = algorithm::binomial;
  spec.p = 2;
  spec.count = 1000;  // 4000 bytes
  const double wire = 1e-6 + 4000 * 1e-9;
  BOOST_TEST(price(spec, net) >= wire + 4000 * 2e-9 - 1e-12);
  net.gamma = 0;
  BOOST_TEST(price(spec, net) < wire + 4000 * 2e-9);
}

BOOST_AUTO_TEST_CASE(a_deadlock_has_no_price) {
  const platform net = test_platform();
  const std::vector<rank_schedule> cycle{{send(1, 8), recv(1, 8)}, {send(0, 8), recv(0, 8)}};
  BOOST_CHECK_THROW(price(cycle, net, 1), collectives::error);
}

BOOST_AUTO_TEST_CASE(recursive_doubling_crosses_the_spine_in_its_last_steps) {
  // fat-tree-256's parameters: 16 hosts a leaf switch, 0.5 µs a link, o_s = o_r = 0.5 µs, E below
  // 64 KiB. An 8-byte all-reduce by recursive doubling at p = 256 is 8 eager exchanges: partners
  // 1, 2, 4 and 8 ranks away share the leaf (2 links), those 16 … 128 away go through the spine (4).
  platform net;
  net.hosts_per_switch = 16;
  net.link_latency = 0.5e-6;
  net.link_byte = 1 / 12.5e9;
  net.send_overhead = net.recv_overhead = 0.5e-6;
  net.eager_bytes = 65535;
  net.eager_moves_at_match = true;
  call_spec spec;
  spec.coll = collective::allreduce;
  spec.alg = algorithm::recursive_doubling;
  spec.p = 256;
  spec.count = 2;
  const double step = 1e-6 + 8 / 12.5e9;  // o_s + o_r and the bytes
  BOOST_TEST(price(spec, net) == 4 * (step + 1e-6) + 4 * (step + 2e-6), boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(an_exchange_above_e_pays_a_latency_a_segment) {
  // fat-tree-256's parameters again, two ranks on two hosts of one leaf (α = 1 µs): an all-gather
  // by recursive doubling at p = 2 is one exchange of the 1 MiB block. Cut into ⌈n/E⌉ = 17
  // segments, each moving once its receive is posted, it costs nβ + 17(α + o_s + o_r), as SMPI
  // times it and the least blocking sends allow there (docs/algorithms.md, "The price of a
  // schedule"); uncut, ordered: 2(α + nβ).
  platform net;
  net.hosts_per_switch = 16;
  net.link_latency = 0.5e-6;
  net.link_byte = 1 / 12.5e9;
  net.send_overhead = net.recv_overhead = 0.5e-6;
  net.eager_bytes = net.eager_across = 65535;
  net.eager_moves_at_match = true;
  call_spec spec;
  spec.coll = collective::allgather;
  spec.alg = algorithm::recursive_doubling;
  spec.p = 2;
  spec.count = 262144;
  const double bytes = 1048576 / 12.5e9;
  BOOST_TEST(price(spec, net) == bytes + 17 * (1e-6 + 1e-6), boost::test_tools::tolerance(1e-9));
  net.segments_across = false;
  BOOST_TEST(price(spec, net) == 2 * (1e-6 + bytes), boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(eager_messages_of_one_rank_share_its_link) {
  // A naive broadcast at p = 4 of 1000 bytes, every send eager: the root's three messages share
  // its link, which is busy from the first send on, so the last ends o_s + α + 3·mβ + o_r from the
  // start, as if they had left one after another.
  platform net = one_host_eager(false);
  net.send_overhead = 0.3e-6;
  net.recv_overhead = 0.2e-6;
  call_spec spec;
  spec.coll = collective::broadcast;
  spec.alg = algorithm::naive;
  spec.p = 4;
  spec.count = 250;
  BOOST_TEST(price(spec, net) == 0.3e-6 + 1e-6 + 3 * 1000 * 1e-9 + 0.2e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(messages_in_flight_together_arrive_together) {
  // Rank 0 sends 1000 bytes to ranks 1 and 2 at once (1 µs of bytes each, 1 µs latency, eager,
  // no overheads); rank 1 forwards its message to rank 3. Sharing the link, both of rank 0's
  // messages arrive at 2 + 1 µs (one after another, rank 1's would at 1 + 1), and rank 3's at 5.
  platform net = one_host_eager(false);
  const std::vector<rank_schedule> fan_out{
      {send(1, 1000), send(2, 1000)}, {recv(0, 1000), send(3, 1000)}, {recv(0, 1000)}, {recv(1, 1000)}};
  BOOST_TEST(price(fan_out, net, 1) == 5e-6, boost::test_tools::tolerance(1e-12));
  // Sent 0.5 µs apart (a copy between them), the first has half its bytes out before the second
  // starts, then both share the link: the first ends at 1.5 µs, rank 1 forwards at 2.5 and rank 3
  // has its message at 4.5 (one after another, at 4).
  net.delta = 0.5e-6 / 1000;
  const std::vector<rank_schedule> staggered{
      {send(1, 1000), {op::copy, false, 0, false, -1, 1000}, send(2, 1000)},
      {recv(0, 1000), send(3, 1000)}, {recv(0, 1000)}, {recv(1, 1000)}};
  BOOST_TEST(price(staggered, net, 1) == 4.5e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_message_takes_the_link_after_its_latency_by_its_routes_weight) {
  // One rank a host, two hosts a leaf switch: from rank 0, rank 1 is 2 links away (1 µs), rank 2
  // through the spine, 4 (2 µs); 0.1 ns a byte. Every send eager, no overheads.
  platform net = test_platform();
  net.ranks_per_host = 1;
  net.eager_bytes = 65536;
  // 1 µs of bytes to each, rank 2 first: the bytes to rank 1 take the link from 1 µs to 2, those
  // to rank 2 from 2 to 3 (sharing from the sends on, both would end at 2, rank 2's at 2 + 2).
  const std::vector<rank_schedule> near_and_far{{send(2, 10000), send(1, 10000)}, {recv(0, 10000)}, {recv(0, 10000)}};
  BOOST_TEST(price(near_and_far, net, 1) == 3e-6, boost::test_tools::tolerance(1e-12));
  // 3 µs of bytes to rank 1, 1 µs to rank 2, which forwards its message to rank 3 (2 µs). From
  // 2 µs both share the link by their routes' penalties, latency + S bytes' time a link: 2 + 4·0.5
  // against 1 + 2·0.5 µs with S = 5000 B, so rank 1's bytes go twice as fast as rank 2's. Rank 2's
  // end at 5 µs (in equal parts, at 4) and rank 3 has its message at 7 (at 6).
  const std::vector<rank_schedule> weighted{
      {send(2, 10000), send(1, 30000)}, {recv(0, 30000)}, {recv(0, 10000), send(3, 10000)}, {recv(2, 10000)}};
  net.sharing_bytes = 5000;
  BOOST_TEST(price(weighted, net, 1) == 7e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_message_that_moves_at_its_match_waits_for_the_one_before_to_its_peer) {
  // One host (1 µs, 1 µs of bytes a message), eager messages moving at the match, no overheads:
  // rank 0 sends to 1, 2, then 1 again. Rank 1 posts its second receive once it has the first, so
  // the third message cannot share the link with the first two: they end at 1 + 2 µs, the third
  // takes the link at 3 + 1 and arrives at 5 (all three sharing from 1 µs: rank 1 would have its
  // first message at 4 and its second at 6).
  const platform net = one_host_eager(true);
  const std::vector<rank_schedule> twice{
      {send(1, 1000), send(2, 1000), send(1, 1000)}, {recv(0, 1000), recv(0, 1000)}, {recv(0, 1000)}};
  BOOST_TEST(price(twice, net, 1) == 5e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_late_receive_leaves_the_link_to_the_others_until_then) {
  // One host (1 µs, 1 µs of bytes a message), eager messages moving at the match, no overheads.
  // Rank 0 sends to 1 and 2 at once; rank 1 copies for 2 µs before it receives, so its message
  // takes the link only at 2 + 1 µs, and rank 2's has it alone from 1 to 2: rank 2 forwards at
  // 2 and rank 3 has its message at 4 (priced as if both shared the link from 1 µs, at 5).
  platform net = one_host_eager(true);
  net.delta = 2e-6 / 1000;
  const std::vector<rank_schedule> late{{send(1, 1000), send(2, 1000)},
                                        {{op::copy, false, 0, false, -1, 1000}, recv(0, 1000)},
                                        {recv(0, 1000), send(3, 1000)},
                                        {recv(2, 1000)}};
  BOOST_TEST(price(late, net, 1) == 4e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_message_waits_for_its_peers_time_between_receives) {
  // One host (1 µs, 1 µs of bytes a message), eager messages moving at the match, no overheads.
  // Rank 0 sends two messages each to ranks 1 and 2, which copy for 2 µs between their two
  // receives; rank 1 then forwards to rank 3. The first two share the link from 1 to 3, the second
  // two from 3 + 2 + 1 = 6 to 8, and rank 3 has its message at 10. The replay meets rank 1 before
  // rank 2: counting rank 2's second receive as posted right after its first message, it would
  // have rank 2's second message take the link alone from 4 and rank 3 its message at 9.
  platform net = one_host_eager(true);
  net.delta = 2e-6 / 1000;
  const step copy{op::copy, false, 0, false, -1, 1000};
  const std::vector<rank_schedule> pipelined{{send(1, 1000), send(2, 1000), send(1, 1000), send(2, 1000)},
                                             {recv(0, 1000), copy, recv(0, 1000), send(3, 1000)},
                                             {recv(0, 1000), copy, recv(0, 1000)},
                                             {recv(1, 1000)}};
  BOOST_TEST(price(pipelined, net, 1) == 10e-6, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(a_send_says_whether_it_carries_the_callers_input) {
  // Which sends carry the caller's untouched input: (rank, its sends' input flags in order).
  const auto inputs = [](collective c, algorithm a, int p, std::size_t count) {
    call_spec spec;
    spec.coll = c;
    spec.alg = a;
    spec.p = p;
    spec.count = count;
    std::vector<std::vector<bool>> out;
    for (const rank_schedule& r : record_call(spec)) {
      out.emplace_back();
      for (const step& s : r)
        if (s.kind == op::send) out.back().push_back(s.input);
    }
    return out;
  };
  using flags = std::vector<std::vector<bool>>;
  // Binomial broadcast from 0 at p = 4: the root sends its own buffer twice, rank 2 forwards.
  BOOST_TEST((inputs(collective::broadcast, algorithm::binomial, 4, 8) == flags{{true, true}, {}, {false}, {}}));
  // Binomial reduce to 0: the leaves send their input, rank 2 the sum it formed.
  BOOST_TEST((inputs(collective::reduce, algorithm::binomial, 4, 8) == flags{{}, {true}, {false}, {true}}));
  // Ring all-reduce at p = 2: the reduce-scatter step sends half of the input, the all-gather step
  // the sum just formed.
  BOOST_TEST((inputs(collective::allreduce, algorithm::ring, 2, 8) == flags{{true, false}, {true, false}}));
  // Ring all-gather forwards from the first step: the own block was copied into the result first.
  BOOST_TEST((inputs(collective::allgather, algorithm::ring, 2, 8) == flags{{false}, {false}}));
  // Pairwise all-to-all sends blocks of the input only.
  BOOST_TEST((inputs(collective::alltoall, algorithm::pairwise, 3, 8) == flags{{true, true}, {true, true}, {true, true}}));
}
