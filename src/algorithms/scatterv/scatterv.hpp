// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The scatterv algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/binomial_tree.hpp"
#include "core/block_layout.hpp"
#include "core/registry.hpp"

namespace collectives::detail {

void scatterv_vendor(const call& c);
void scatterv_naive(const call& c);
void scatterv_binomial(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry scatterv_algorithms[] = {
    {collective::scatterv, algorithm::vendor, &scatterv_vendor, true},
    {collective::scatterv, algorithm::naive, &scatterv_naive, true},
    {collective::scatterv, algorithm::binomial, &scatterv_binomial, true},
};

}  // namespace collectives::detail
