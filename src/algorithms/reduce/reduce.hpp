// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The reduce algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void reduce_vendor(const call& c);
void reduce_naive(const call& c);
void reduce_binomial(const call& c);
void reduce_rabenseifner(const call& c);
void reduce_hierarchical(const call& c);
void reduce_pipelined_tree(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry reduce_algorithms[] = {
    {collective::reduce, algorithm::vendor, &reduce_vendor, true},
    {collective::reduce, algorithm::naive, &reduce_naive, true},
    {collective::reduce, algorithm::binomial, &reduce_binomial, true},
    {collective::reduce, algorithm::rabenseifner, &reduce_rabenseifner, false},
    {collective::reduce, algorithm::pipelined_tree, &reduce_pipelined_tree, false},
    {collective::reduce, algorithm::hierarchical, &reduce_hierarchical, false},
};

}  // namespace collectives::detail
