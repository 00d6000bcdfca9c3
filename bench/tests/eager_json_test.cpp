// SPDX-License-Identifier: BSD-3-Clause
// The library's eager limits through collbench's JSON (bench.eager_json): a run written and read
// back keeps all of eager_limits, and the model prices the read-back run as it priced the run
// written — segments across hosts where the library cuts its exchanges into them, none where it
// does not; a file from before segments_across was written prices as it did.

#define BOOST_TEST_MODULE eager_json
#include <boost/test/unit_test.hpp>
#include <collectives/eager.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "kit/eager.hpp"
#include "report/output.hpp"

namespace cb = collbench;
using collectives::collective;

namespace {

// A stored run with a measured model (one host of 2 ranks), moved to 2 hosts of 2 ranks each.
cb::run_info two_hosts(bool segments_across) {
  std::ifstream file(std::string(COLLECTIVES_SOURCE_DIR) + "/tests/identical/inputs/runs/np2-model.json");
  cb::run_info info = cb::read_json(file).info;
  info.ranks = 4;
  cb::host_links links = *info.hosts;
  links.layout = {.hosts = 2, .ranks_per_host = 2, .map = "block", .host_of = {0, 0, 1, 1}};
  links.alpha_inter = 50e-6, links.beta_inter = 1 / 125e6;
  info.hosts = links;
  info.eager = collectives::eager_limits{4040, 65480, true, "by hand", segments_across};
  return info;
}

cb::run_info written_and_read(const cb::run_info& info, bool drop_segments = false) {
  std::stringstream out;
  cb::write_json(out, info, {});
  nlohmann::json doc = nlohmann::json::parse(out.str());
  if (drop_segments) doc.at("collbench").at("eager").erase("segments_across");
  std::stringstream in(doc.dump());
  return cb::read_json(in).info;
}

// Allgather by recursive doubling at 4 ranks: its second exchange, 2 blocks of 256 KiB each way,
// crosses the hosts above E (65480 B) and goes in segments where the library cuts it.
double priced_us(const cb::run_info& info) {
  constexpr std::size_t block = 65536;  // int32 elements
  return *cb::model_us(collective::allgather, "recursive_doubling", info, 4 * block * 4, 4 * block);
}

}  // namespace

BOOST_AUTO_TEST_CASE(all_of_eager_limits_is_read_back) {
  for (const bool segments : {true, false}) {
    const cb::run_info info = two_hosts(segments), back = written_and_read(info);
    BOOST_REQUIRE(back.eager.has_value());
    const collectives::eager_limits &a = *info.eager, &b = *back.eager;
    BOOST_TEST(b.same_host == a.same_host);
    BOOST_TEST(b.other_host == a.other_host);
    BOOST_TEST(b.from_mpi == a.from_mpi);
    BOOST_TEST(b.source == a.source);
    BOOST_TEST(b.segments_across == a.segments_across);
    // The library's E and segment size to a peer (transport.cpp's learn_eager_sizes), alike.
    for (const bool same_host : {true, false}) {
      BOOST_TEST(collectives::detail::eager_to_peer(b, same_host) ==
                 collectives::detail::eager_to_peer(a, same_host));
      BOOST_TEST(collectives::detail::segment_to_peer(b, same_host) ==
                 collectives::detail::segment_to_peer(a, same_host));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_run_read_back_prices_as_written_segments_included) {
  const double cut = priced_us(two_hosts(true)), whole = priced_us(two_hosts(false));
  BOOST_TEST(priced_us(written_and_read(two_hosts(true))) == cut);
  BOOST_TEST(priced_us(written_and_read(two_hosts(false))) == whole);
  // The segments are priced: both partners send each segment first instead of taking turns.
  BOOST_TEST(cut != whole);
  // A file without segments_across (collbench before it) prices as before: cut across hosts.
  BOOST_TEST(priced_us(written_and_read(two_hosts(false), true)) == cut);
}
