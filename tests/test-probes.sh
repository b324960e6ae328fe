#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2015 # ok is a no-op: "A && ok || bad" is if-then-else here
# tools/capture/probes.sh's teo_span probe, composed against a stand-in
# tracefs (a plain directory: nothing is written to this machine's
# tracing) and stand-in kallsyms and CPU lists: the fields per CPU, the
# events per 32 CPUs, each CPU's copy at teo_cpus' address plus its
# __per_cpu_offset[] (ppc64's addresses lie above 2^63; the offsets a
# stand-in for those the function reads with a probe of its own), and the
# messages where it cannot be placed.
set -u
SRC=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
ok() { :; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# shellcheck source=../tools/capture/probes.sh
. "$SRC/tools/capture/probes.sh"
fake() { # CPUS-POSSIBLE KALLSYMS-LINES...
	rm -rf "$T/tr" && mkdir -p "$T/tr/events/idlesim"
	: > "$T/tr/kprobe_events"
	for e in idlesim_teo_span idlesim_teo_span32 idlesim_teo_span64; do
		mkdir -p "$T/tr/events/idlesim/$e" && echo 0 > "$T/tr/events/idlesim/$e/enable"
	done
	echo "$1" > "$T/possible"
	shift
	printf '%s\n' "$@" > "$T/kallsyms"
}
export IDLESIM_KALLSYMS="$T/kallsyms" IDLESIM_CPUS_POSSIBLE="$T/possible" IDLESIM_PER_CPU_OFFSETS=""

# x86_64: zero-based per-CPU symbols, 2 CPUs, one event
fake 0-1 "ffffffff81a3b2c0 t teo_reflect" "0000000000028a00 d teo_cpus" "ffffffff82c1e540 R __per_cpu_offset"
IDLESIM_PER_CPU_OFFSETS="ffff88807dc00000 ffff88807dd00000"; out=$(idlesim_teo_span_add "$T/tr")
want='r:idlesim/idlesim_teo_span teo_reflect s0=@0xffff88807dc28a00:s64 l0=@0xffff88807dc28a08:s64 s1=@0xffff88807dd28a00:s64 l1=@0xffff88807dd28a08:s64'
[ "$(cat "$T/tr/kprobe_events")" = "$want" ] && ok || bad "x86_64 probe: $(cat "$T/tr/kprobe_events")"
case "$out" in "teo_span ok "*"CPUs 0-1: idlesim_teo_span") ok ;; *) bad "x86_64 line: $out" ;; esac
[ "$(cat "$T/tr/events/idlesim/idlesim_teo_span/enable")" = 1 ] && ok || bad "x86_64: not enabled"

# ppc64le: addresses above 2^63 (the sum carried across 32 bits and
# wrapped at 2^64 where it must), 40 CPUs: two events, 32 CPUs to the first
fake 0-39 "c000000000f1e2d0 t teo_reflect" "c0000000004c2440 d teo_cpus" "c0000000005d58f8 D __per_cpu_offset"
offs=""
k=0
while [ $k -lt 40 ]; do offs="$offs $(printf '%x' $((0x7f2a3000 + k * 0x19000)))"; k=$((k + 1)); done
IDLESIM_PER_CPU_OFFSETS=$offs; out=$(idlesim_teo_span_add "$T/tr")
[ "$(wc -l < "$T/tr/kprobe_events")" = 2 ] && ok || bad "ppc64le: $(wc -l < "$T/tr/kprobe_events") events for 40 CPUs"
l1=$(sed -n 1p "$T/tr/kprobe_events") l2=$(sed -n 2p "$T/tr/kprobe_events")
case "$l1" in "r:idlesim/idlesim_teo_span teo_reflect s0=@0xc00000007f765440:s64 l0=@0xc00000007f765448:s64 s1=@0xc00000007f77e440:s64 "*) ok ;; *) bad "ppc64le first: ${l1%% l1=*}" ;; esac
[ "$(echo "$l1" | wc -w)" = 66 ] && ok || bad "ppc64le: first event has $(echo "$l1" | wc -w) words (32 CPUs: 64 fields)"
case "$l2" in "r:idlesim/idlesim_teo_span32 teo_reflect s32=@0xc00000007fa85440:s64 "*" l39=@0xc00000007fb34448:s64") ok ;; *) bad "ppc64le second: $l2" ;; esac
case "$out" in *"CPUs 0-39: idlesim_teo_span idlesim_teo_span32") ok ;; *) bad "ppc64le line: $out" ;; esac
[ "$(idlesim_hex_add ffffffffffffffff 2)" = 0000000000000001 ] && ok || bad "hex_add wraps: $(idlesim_hex_add ffffffffffffffff 2)"
[ "$(idlesim_hex_add 0xfffffffe 0x3)" = 0000000100000001 ] && ok || bad "hex_add carries: $(idlesim_hex_add 0xfffffffe 0x3)"
# fewer offsets than CPUs: refused
IDLESIM_PER_CPU_OFFSETS="7f2a3000"; out=$(idlesim_teo_span_add "$T/tr")
case "$out" in "teo_span failed: __per_cpu_offset[] read 1 values for CPUs 0-39") ok ;; *) bad "short offsets: $out" ;; esac

# no teo in the kernel (Debian's amd64 builds): off, not failed
fake 0-1 "ffffffff81a3b2c0 t menu_reflect" "ffffffff82c1e540 R __per_cpu_offset"
out=$(idlesim_teo_span_add "$T/tr")
case "$out" in "teo_span off: "*) ok ;; *) bad "no teo: $out" ;; esac
# teo, but no data symbols (CONFIG_KALLSYMS_ALL off) or hidden addresses
fake 0-1 "ffffffff81a3b2c0 t teo_reflect"
out=$(idlesim_teo_span_add "$T/tr")
case "$out" in "teo_span failed: "*KALLSYMS_ALL*) ok ;; *) bad "no data symbols: $out" ;; esac
fake 0-1 "0000000000000000 t teo_reflect" "0000000000000000 d teo_cpus" "0000000000000000 R __per_cpu_offset"
out=$(idlesim_teo_span_add "$T/tr")
case "$out" in "teo_span failed: "*) ok ;; *) bad "hidden addresses: $out" ;; esac
[ -s "$T/tr/kprobe_events" ] && bad "placed with hidden addresses" || ok
# a tracefs that refuses the probe: failed, with the kernel's reason
fake 0-1 "ffffffff81a3b2c0 t teo_reflect" "0000000000028a00 d teo_cpus" "ffffffff82c1e540 R __per_cpu_offset"
rm "$T/tr/kprobe_events" && mkdir "$T/tr/kprobe_events"
echo "[  12.3] trace_kprobe: error: Invalid fetch argument" > "$T/tr/error_log"
IDLESIM_PER_CPU_OFFSETS="0 1000"; out=$(idlesim_teo_span_add "$T/tr" 2>/dev/null)
case "$out" in "teo_span failed: "*"Invalid fetch argument") ok ;; *) bad "refused: $out" ;; esac
[ "$fails" = 0 ] || exit 1
echo "probes: all passed"
