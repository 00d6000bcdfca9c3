// SPDX-License-Identifier: BSD-3-Clause
// The model prices a platform's smpi/lat-factor and smpi/bw-factor as SMPI does
// (bench.platform_factors): a message's route latency times the one and its bandwidth times the
// other, read at its bytes and 16 of envelope; a platform whose factors are 0:1 has none.

#define BOOST_TEST_MODULE platform_factors
#include <boost/test/unit_test.hpp>
#include <string>

#include "model/simgrid_platform.hpp"

namespace cb = collbench;
namespace schedule = collectives::detail::schedule;

BOOST_AUTO_TEST_CASE(a_calibrated_platforms_factors_are_priced) {
  // Two hosts under one switch (two links), 5 µs a link, 1.25 GB/s; factors 1, 1.5, 3 of the
  // latency and 0.5, 0.8, 1 of the bandwidth, from 4111 and 32783 bytes of payload.
  const schedule::platform net =
      cb::simgrid_platform(std::string(COLLECTIVES_SOURCE_DIR) + "/tests/calibrate/known.xml");
  BOOST_REQUIRE(net.factors);
  const auto wire = [&](std::uint64_t bytes) {
    return net.wire(0, schedule::step{.kind = schedule::op::send, .peer = 1, .bytes = bytes});
  };
  BOOST_TEST(wire(1000) == 2 * 5e-6 * 1 + 1000 / (1.25e9 * 0.5), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(wire(4095) == 2 * 5e-6 * 1 + 4095 / (1.25e9 * 0.5), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(wire(4096) == 2 * 5e-6 * 1.5 + 4096 / (1.25e9 * 0.8), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(wire(1 << 20) == 2 * 5e-6 * 3 + (1 << 20) / 1.25e9, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(factors_of_one_are_none) {
  const schedule::platform net = cb::simgrid_platform(std::string(COLLECTIVES_SOURCE_DIR) +
                                                      "/scripts/mpirun/platforms/fat-tree-256.xml");
  BOOST_TEST(!net.factors);
}
