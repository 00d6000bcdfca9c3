#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The fit of a real measurement over TCP (tcp-two-nodes.json, or another given: Open MPI 4.1 between
# two hosts of the emulated cluster, 1 Gbit/s token-bucket links; tcp-two-nodes-second.json was
# taken on a second machine) prices what SMPI's links cannot show by themselves:
# - the eager limit, exact (65481 B: TCP's 64 KiB less ob1's header; 2 KiB, which crosses a third
#   faster than 1 and 4 KiB, is TCP's own and not taken for a disturbance), named for the library
#   apart from SMPI's detached sizes, which go on to the first rendezvous whose receiver waited;
# - an eager size that crosses a link at rest faster than a busy one (the bucket's burst) costs,
#   alone, what one message of a stream costs: at 32 KiB, SMPI's price of one message (os + the
#   transfer + or) is within 10% of the measured stream's time per message, which is twice the
#   ping-pong's (priced from the ping-pong, as before, it came out at about half);
# - messages from the first size priced from its stream start when their receive is posted
#   (smpi/async-small-thresh): SMPI would start a sender's messages at once and share the link
#   among them, where TCP sends them one after another;
# - or, what MPI_Recv costs, at most the stream's time per message: a receiver kept busy is not
#   woken from a pause, as the measurement's MPI_Recv was.
# - an eager size not streamed costs what one message of an exchange costs (the duplex stream, both
#   ways at once, as a collective's exchanges send): at 8 B, SMPI's price of one MPI_Isend's message
#   (ois + the transfer + or) is within 5% of the duplex stream's time per message, 17% over the
#   ping-pong's in tcp-two-nodes.json (priced from the ping-pong, as before, it came out at the
#   ping-pong).
# - the transfer of a streamed size is its stream less or: where or changes its piece among those
#   sizes, the transfer's piece changes too (one piece across it priced the 65480 B segment of the
#   library's large exchanges 14% under the stream measured on the second machine).
# Usage: tcp_fit_test.sh COLLCALIBRATE RUN [MEASUREMENT]   (RUN: scripts/mpirun/run, to start it as
#        1 rank; MEASUREMENT: tcp-two-nodes.json by default)
set -euo pipefail
collcalibrate=${1:?usage: tcp_fit_test.sh COLLCALIBRATE RUN [MEASUREMENT]}
run=${2:?usage: tcp_fit_test.sh COLLCALIBRATE RUN [MEASUREMENT]}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
measurement=${3:-$here/tcp-two-nodes.json}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tcp_fit_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "tcp_fit_test: $*" >&2
  exit 1
}

"$run" -n 1 "$collcalibrate" fit "$measurement" --topology fat-tree:4 --output "$tmp/tcp.xml"
# The platform's props, and SMPI's price of one message on it, read by collcalibrate price (the
# one platform reader: bench/model/simgrid_file.hpp).
price() { "$run" -n 1 "$collcalibrate" price "$tmp/tcp.xml" "$@"; }
prop() { price --prop "$1"; }
# SIZE's line NAME of collcalibrate price: os, or, ois, transfer, send (os + transfer + or), isend.
priced() { price --bytes "$1" | awk -v n="$2" '$1 == n { print $2 }'; }
[[ $(prop collectives/eager-limit) == 65481 ]] ||
  fail "the eager limit is '$(prop collectives/eager-limit)', not 65481"
# SMPI detaches the rendezvous sizes whose receiver, coming late, waited less than half their
# ping-pong (the data went before the receive: Open MPI's first fragment, the bucket's burst), up to
# the first that waited for its data: 524288 in this measurement (recv 2507 µs, ping-pong 2477).
first_waiting=$(awk '$NF == "rendezvous" && $4 >= $2 / 2 { print $1; exit }' "$tmp/tcp.xml")
[[ $first_waiting == 524288 && $(prop smpi/send-is-detached-thresh) == "$first_waiting" ]] ||
  fail "send-is-detached-thresh is '$(prop smpi/send-is-detached-thresh)', the first size whose receiver waited '$first_waiting'"
# The smallest eager size whose stream is slower per message than its ping-pong, from the
# platform's own table of the measurement (bytes, ping-pong, send, recv, isend, stream, duplex).
first_streamed=$(awk '$NF == "eager" && $6 > $2 { print $1; exit }' "$tmp/tcp.xml")
[[ -n $first_streamed && $(prop smpi/async-small-thresh) == "$first_streamed" ]] ||
  fail "async-small-thresh is '$(prop smpi/async-small-thresh)', the first streamed size '$first_streamed'"
# SMPI's price of one 32 KiB message, from the platform's settings (SMPI's reading of "T:a:b;…" and
# "T:f;…": the section of the last T below the size; the factors apply to the payload, 16 bytes of
# envelope added), against the stream measured, from the platform's own table of the measurement.
bytes=32768
stream=$(awk -v s=$bytes '$1 == s && $NF == "eager" { print $6 * 1e-6 }' "$tmp/tcp.xml")
[[ -n $stream ]] || fail "no stream at $bytes B in the platform"
# One message of SIZE bytes sent with MPI_Send (os) or MPI_Isend (ois): that overhead, the transfer
# over two links and or (collcalibrate price fails on a platform without a link).
price=$(priced $bytes send)
awk -v p="$price" -v m="$stream" 'BEGIN { exit !(p > 0.9 * m && p < 1.1 * m) }' ||
  fail "one $bytes B message is priced $price s, the stream measured $stream s per message"
# A busy receiver: at 8 B MPI_Recv took longer after the measurement's pause than a stream took per
# message, and or is at most the stream's time (its piece fitted within 5%: at most 5% over it).
small_or=$(priced 8 or)
read -r small_recv small_stream < <(awk '$1 == 8 && $NF == "eager" { print $4 * 1e-6, $6 * 1e-6 }' "$tmp/tcp.xml")
awk -v o="$small_or" -v s="$small_stream" -v r="$small_recv" 'BEGIN { exit !(s < r && o > 0 && o <= 1.05 * s) }' ||
  fail "or at 8 B is $small_or s; MPI_Recv measured $small_recv s, the stream $small_stream s per message"
# The pieces of or and of the transfer, from the platform's comment ("or  FIRST – LAST B: …"): every
# piece of or that starts among the streamed sizes starts one of the transfer.
starts() { awk -v n="$1" '$1 == n && $3 == "–" { print $2 }' "$tmp/tcp.xml"; }
for first in $(starts or); do
  ((first > first_streamed && first < 65481)) || continue
  grep -qx "$first" <(starts wire) ||
    fail "or changes its piece at $first B among the streamed sizes; the transfer's pieces start at $(starts wire | tr '\n' ' ')"
done
# An exchange of 8 B: its price from the settings against the duplex stream, from the table.
duplex=$(awk '$1 == 8 && $NF == "eager" { print $7 * 1e-6 }' "$tmp/tcp.xml")
exchange=$(priced 8 isend)
awk -v p="$exchange" -v m="$duplex" 'BEGIN { exit !(p > 0.95 * m && p < 1.05 * m) }' ||
  fail "one 8 B message of an exchange is priced $exchange s, the duplex stream measured $duplex s per message"
echo "tcp_fit_test: eager limit 65481 B, messages from $first_streamed B start at their receive;" \
  "one $bytes B message priced $price s," \
  "the stream $stream s per message; or at 8 B $small_or s, the stream $small_stream s;" \
  "an exchange of 8 B priced $exchange s, the duplex stream $duplex s"
