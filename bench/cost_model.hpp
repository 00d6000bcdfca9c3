#pragma once

// The α-β-γ cost of every (collective, algorithm), in one table (cost_model.cpp): what --model
// prints beside the measured time. n is the message's `bytes` as collbench reports it
// (metrics.hpp: the whole p-block array for scatter, gather, allgather, reduce_scatter and
// alltoall), α the latency of one message, β seconds per byte sent, γ seconds per byte reduced.

#include <collectives/algorithm.hpp>
#include <optional>
#include <string_view>

namespace collbench {

struct cost_params {
  double alpha;
  double beta;
  double gamma;
};

/// The formula as text, e.g. "2(p−1)α + 2(p−1)/p·nβ + (p−1)/p·nγ", or empty when the table has
/// none. `algorithm` is a row label: a library algorithm, or vendor:<name>, which uses the
/// library algorithm of the same name (vendor's ring is modelled as a ring); vendor has none.
std::string_view cost_formula(collectives::collective c, std::string_view algorithm);

/// Predicted seconds for `n` bytes on `p` ranks, or std::nullopt when the table has no formula.
std::optional<double> predict_seconds(collectives::collective c, std::string_view algorithm, int p, double n,
                                      const cost_params& m);

}  // namespace collbench
