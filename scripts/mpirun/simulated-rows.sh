# SPDX-License-Identifier: BSD-3-Clause
# The rows a simulated timing run leaves out, because SMPI cannot simulate them in a useful wall
# time on one core; sourced by compare-simulated.sh (compare.sh --simulate) and tune.sh --simulate,
# which both say on stderr what they leave out. The smpi test label still runs every algorithm for
# correctness, at sizes that fit.
#
# - Above 256 ranks, the schedules of p − 1 steps of p messages: the library's ring (allgather,
#   allgatherv, reduce_scatter, reduce_scatterv, allreduce), reduce_scatter's pairwise exchange
#   and broadcast's scatter_allgather (scatter + ring), and SMPI's ones of that shape (vendor:ring,
#   vendor:ompi_ring, vendor:mpich_pair, vendor:lr, vendor:scatter_LR_allgather). Each sends about
#   p² messages a call, which SMPI simulates one by one: minutes of wall time per call and size.
#   And at 256 ranks they lose to the log p algorithms at every size already
#   (docs/measurements/2026-11-27-simulated-fat-trees.md has both figures). alltoall(v) keeps its
#   pairwise exchange, the only bandwidth-bound schedule it has. Of SMPI's whole catalogue
#   (compare.sh --simulate --catalogue), by the schedules in SimGrid 3.32's src/smpi/colls/, also:
#   all-gather's logical rings (loosely_lr, NTSLR, NTSLR_NB, and SMP_NTS and smp_simple, rings
#   among the nodes' leaders, here every rank on single-core nodes), its pairwise exchange (pair),
#   neighbour exchange (ompi_neighborexchange: p/2 steps of p messages) and spreading_simple (all
#   p² messages at once); all-reduce's segmented ring (ompi_ring_segmented) and rab2 (an
#   all-to-all inside, by the launch's linear one). Those it has of log p steps or of p messages
#   a call stay.
# - From 256 ranks, all-to-all's vendor:ompi: SMPI's reproduction of Open MPI's selection takes its
#   linear all-to-all (all p − 1 sends and receives posted at once, then one wait) for blocks of
#   1–32 KiB at 256–511 ranks and 512 B–256 KiB at 1024–2047: p² flows in the network model at once,
#   each arrival re-solving the sharing of the links among all of them. One such call at 256 ranks
#   had not finished after 20 minutes. (At 64 ranks, p² = 4,096 flows, it takes seconds.) For the
#   same reason SMPI's basic_linear all-to-all itself (--catalogue).

# - Above 256 ranks, scan and exscan in the tuner's one launch per collective: the vendor row every
#   collbench run times is SMPI's own MPI_Scan and MPI_Exscan, which post their p(p − 1)/2 messages
#   at once (at 8 B: 10 s of wall time at 256 ranks, over 2 minutes at 512, over 14 at 1024).
#   automatic then takes their rule from the nearest process count measured.

# left_out_collectives RANKS: the collectives a simulated tuning leaves out at RANKS, on one line.
left_out_collectives() {
  (($1 > 256)) && echo "scan exscan"
  return 0
}

# left_out_rows COLLECTIVE RANKS: the rows left out, library names and vendor:<name>, on one line.
left_out_rows() {
  local rows=()
  if (($2 > 256)); then
    case $1 in
      broadcast) rows=(scatter_allgather vendor:scatter_LR_allgather) ;;
      allgather)
        rows=(ring vendor:ring vendor:loosely_lr vendor:NTSLR vendor:NTSLR_NB vendor:SMP_NTS vendor:smp_simple
          vendor:pair vendor:ompi_neighborexchange vendor:spreading_simple) ;;
      allgatherv) rows=(ring) ;;
      reduce_scatter) rows=(ring pairwise vendor:ompi_ring vendor:mpich_pair) ;;
      reduce_scatterv) rows=(ring pairwise) ;;
      allreduce) rows=(ring vendor:lr vendor:ompi_ring_segmented vendor:rab2) ;;
    esac
  fi
  [[ $1 == alltoall ]] && (($2 >= 256)) && rows+=(vendor:ompi vendor:basic_linear)
  echo "${rows[*]}"
}

# without_rows LIST LEFT_OUT: the comma-separated LIST less the names in LEFT_OUT (space-separated).
without_rows() {
  local kept=() a
  for a in ${1//,/ }; do
    [[ " $2 " == *" $a "* ]] || kept+=("$a")
  done
  (IFS=,; echo "${kept[*]}")
}
