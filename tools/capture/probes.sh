# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# The governor's inputs on a stock kernel: kprobe events (tracefs
# kprobe_events, CONFIG_KPROBE_EVENTS) on the functions a cpuidle governor
# calls in its select(), sourced by a POSIX shell (busybox's included).
#
#   idlesim_probes_add TRACEFS    place and enable them; one line per probe:
#                                 "NAME ok ARGS" or "NAME failed: WHY"
#   idlesim_probes_remove TRACEFS disable and delete them
#
# What each records, and what `idlesim import` does with it
# (docs/import.md, "Probes"):
#   idlesim_sleep_length  return of tick_nohz_get_sleep_length(): the sleep
#       length the governor read (sleep_ns) and *delta_next (delta_next_ns):
#       where the kernel lets a return probe read an argument (6.10 and
#       later: $arg1 is kept from the entry), +0($arg1); before that
#       (Debian 12's 6.1), from the stack: *delta_next is a local of the
#       governor's select (menu's and teo's delta_tick), at a distance from
#       the stack pointer the return probe sees that is fixed for a build
#       and measured first (idlesim_delta_next_offset).  A select without
#       it did not read the sleep length (teo since 6.12 may skip it).
#   idlesim_latency_req   return of cpuidle_governor_latency_req(): the
#       PM QoS limit the governor obeyed (latency_req_ns).
#   idlesim_stop_tick / idlesim_retain_tick  entries of
#       tick_nohz_idle_stop_tick() / tick_nohz_idle_retain_tick(): the
#       stop-tick decision (stop is also called when the tick is already
#       stopped; a stop with no timer:tick_stop after it is the kernel
#       keeping the tick for a timer, RCU or irq work within a jiffy).
#   idlesim_nr_iowait     return of nr_iowait_cpu(): menu (6.1 and before)
#       reads it in every select (nr_iowait).
#   idlesim_draw          return of get_random_u32(): the random number a
#       governor that draws takes in its select (the series' wteo); other
#       callers' draws fall outside the selects and are not used.
#   idlesim_reflect       entry of cpuidle_reflect(dev, index): the state
#       entered (negative: refused, need_resched) and the residency the
#       kernel measured, dev->last_residency_ns, in nanoseconds (the trace's
#       text has microseconds), and dev->poll_time_limit.  The offsets are
#       struct cpuidle_device's on 64-bit little-endian kernels 5.6 and
#       later (6.1 and 6.12 alike: two u32 words of bit fields and cpu, the
#       ktime_t next_hrtimer, int last_state_idx, then the u64); the import
#       refuses a residency longer than its traced period.
#   idlesim_select        return of cpuidle_select(): the state the governor
#       chose and (6.10 and later) its *stop_tick; the import needs it for
#       a select whose state was then refused (need_resched), which has no
#       cpu_idle event.
#   idlesim_got_tick      return of tick_nohz_idle_got_tick(): whether the
#       tick ran in the period, as the governor's reflect read it (menu
#       always, teo without a poll limit, ladder never).
#   idlesim_teo_span      return of teo_reflect(): teo's time_span_ns and
#       sleep_length_ns as teo_reflect() left them in its per-CPU data
#       (struct teo_cpu's first two s64 fields, teo's layout since 5.1),
#       read at per_cpu_ptr(&teo_cpus, cpu): __per_cpu_offset[cpu] plus
#       teo_cpus' address from /proc/kallsyms (data symbols need
#       CONFIG_KALLSYMS_ALL, which Debian sets).  A probe cannot index by
#       the running CPU, so each CPU has its own pair of fields, s<CPU> and
#       l<CPU>, 32 CPUs to an event (idlesim_teo_span, idlesim_teo_span32,
#       ...); the import takes its own CPU's.  teo's span ends at a
#       local_clock() read inside teo_reflect(), which no trace event
#       marks: without this probe the import estimates it (microseconds
#       off).  Placed at run time only (the addresses are the running
#       kernel's): not in idlesim_probes_cmdline.
#
# Each is tried with its richest arguments first; a kernel that refuses one
# (no such symbol, inlined, a fetch argument it does not know) gets the
# next form, and the last failure is said.

IDLESIM_PROBES="
sleep_length|r:idlesim/idlesim_sleep_length tick_nohz_get_sleep_length sleep_ns=\$retval:s64 delta_next_ns=+0(\$arg1):s64|r:idlesim/idlesim_sleep_length tick_nohz_get_sleep_length sleep_ns=\$retval:s64
latency_req|r:idlesim/idlesim_latency_req cpuidle_governor_latency_req latency_req_ns=\$retval:s64
stop_tick|p:idlesim/idlesim_stop_tick tick_nohz_idle_stop_tick
retain_tick|p:idlesim/idlesim_retain_tick tick_nohz_idle_retain_tick
nr_iowait|r:idlesim/idlesim_nr_iowait nr_iowait_cpu nr_iowait=\$retval:u32
draw|r:idlesim/idlesim_draw get_random_u32 draw=\$retval:u32
select|r:idlesim/idlesim_select cpuidle_select state=\$retval:s32 stop_tick=+0(\$arg3):u8|r:idlesim/idlesim_select cpuidle_select state=\$retval:s32
got_tick|r:idlesim/idlesim_got_tick tick_nohz_idle_got_tick got_tick=\$retval:u8
reflect|p:idlesim/idlesim_reflect cpuidle_reflect index=\$arg2:s32 residency_ns=+24(\$arg1):s64 poll_limit=+0(\$arg1):b1@2/32|p:idlesim/idlesim_reflect cpuidle_reflect index=\$arg2:s32 residency_ns=+24(\$arg1):s64
"

idlesim_probes_add() {
	_t=$1
	if [ ! -w "$_t/kprobe_events" ]; then
		echo "all failed: no $_t/kprobe_events (CONFIG_KPROBE_EVENTS off, tracefs not mounted, or not root)"
		return 1
	fi
	echo "$IDLESIM_PROBES" | while IFS='|' read -r _name _d1 _d2; do
		[ -n "$_name" ] || continue
		_ok=""
		_why=""
		_how=""
		for _d in "$_d1" "$_d2"; do
			[ -n "$_d" ] || continue
			if [ "$_d" = "$_d2" ] && [ "$_name" = sleep_length ]; then
				# no argument at return: *delta_next from the caller's frame
				idlesim_sleep_length_from_stack "$_t" && break
			fi
			if echo "$_d" >> "$_t/kprobe_events" 2>/dev/null; then
				_ok=$_d
				break
			fi
			# the kernel's reason, where it keeps one (error_log, 5.6 and later)
			_why=$(tail -n 1 "$_t/error_log" 2>/dev/null | sed 's/^ *//')
		done
		if [ -z "$_ok" ]; then
			echo "$_name failed: ${_why:-refused}"
			continue
		fi
		if ! echo 1 > "$_t/events/idlesim/idlesim_$_name/enable" 2>/dev/null; then
			echo "$_name failed: placed but could not be enabled"
			continue
		fi
		echo "$_name ok $(echo "$_ok" | cut -d' ' -f3-)$_how"
	done
	idlesim_teo_span_add "$_t"
}

# idlesim_teo_span_add TRACEFS: places idlesim_teo_span (see above) and
# says "teo_span ok ...", "teo_span failed: WHY", or "teo_span off: ..."
# on a kernel without teo (Debian's amd64 6.12 builds menu alone).
# (IDLESIM_KALLSYMS and IDLESIM_CPUS_POSSIBLE stand for /proc/kallsyms and
# /sys/devices/system/cpu/possible in tests/test-probes.sh.)
idlesim_teo_span_add() {
	_t=$1
	_ks=${IDLESIM_KALLSYMS:-/proc/kallsyms}
	_a=$(awk '$3 == "teo_cpus" { print $1; exit }' "$_ks" 2>/dev/null)
	if ! grep -q ' teo_reflect$' "$_ks" 2>/dev/null; then
		echo "teo_span off: no teo_reflect in /proc/kallsyms (teo is not built in: nothing to read)"
		return 0
	fi
	if [ -z "$_a" ] || [ "$_a" = 0000000000000000 ] ||
		! grep -q ' __per_cpu_offset$' "$_ks" 2>/dev/null; then
		echo "teo_span failed: teo_cpus or __per_cpu_offset not in /proc/kallsyms (CONFIG_KALLSYMS_ALL off, or addresses hidden)"
		return 0
	fi
	# the highest possible CPU: "0-3", "0,2-5"
	_n=$(sed 's/.*[-,]//' "${IDLESIM_CPUS_POSSIBLE:-/sys/devices/system/cpu/possible}" 2>/dev/null)
	case "$_n" in ''|*[!0-9]*) echo "teo_span failed: no /sys/devices/system/cpu/possible"; return 0 ;; esac
	# Each CPU's copy at an absolute address: a probe's +OFFS(...) holds
	# an int (struct fetch_insn), too small for ppc64's 0xc000... (seen:
	# every reading 0 on the ppc64le guest), so __per_cpu_offset[] is read
	# first (fixed from boot on) and the sums made here
	if [ -n "${IDLESIM_PER_CPU_OFFSETS:-}" ]; then
		_o=$IDLESIM_PER_CPU_OFFSETS
	elif ! _o=$(idlesim_per_cpu_offsets "$_t" "$_n" 2>&1); then
		echo "teo_span failed: __per_cpu_offset[] could not be read: $_o"
		return 0
	fi
	# shellcheck disable=SC2086 # the words are the offsets
	set -- $_o
	if [ "$#" -ne $((_n + 1)) ]; then
		echo "teo_span failed: __per_cpu_offset[] read $# values for CPUs 0-$_n"
		return 0
	fi
	_c=0
	_ev=""
	_d=""
	for _off in "$@"; do
		if [ $((_c % 32)) = 0 ]; then
			_e=idlesim_teo_span
			[ "$_c" = 0 ] || _e=idlesim_teo_span$_c
			_d="r:idlesim/$_e teo_reflect"
		fi
		_p=$(idlesim_hex_add "$_a" "$_off")
		_d="$_d s$_c=@0x$_p:s64 l$_c=@0x$(idlesim_hex_add "$_p" 8):s64"
		_c=$((_c + 1))
		if [ $((_c % 32)) = 0 ] || [ "$_c" -gt "$_n" ]; then
			if ! echo "$_d" >> "$_t/kprobe_events" 2>/dev/null; then
				echo "teo_span failed: $(tail -n 1 "$_t/error_log" 2>/dev/null | sed 's/^ *//')"
				return 0
			fi
			if ! echo 1 > "$_t/events/idlesim/$_e/enable" 2>/dev/null; then
				echo "teo_span failed: $_e placed but could not be enabled"
				return 0
			fi
			_ev="$_ev $_e"
		fi
	done
	echo "teo_span ok s<CPU>/l<CPU> at teo_cpus 0x$_a + __per_cpu_offset[CPU] ($*), CPUs 0-$_n:$_ev"
}

# idlesim_hex_add A B: A + B modulo 2^64, both hexadecimal (with or
# without 0x), printed as 16 hex digits.  In 32-bit halves: a shell's
# arithmetic is signed 64-bit, and dash saturates where busybox wraps.
idlesim_hex_add() {
	_ha=$(printf '%016s' "${1#0x}" | tr ' ' 0)
	_hb=$(printf '%016s' "${2#0x}" | tr ' ' 0)
	_lo=$((0x${_ha#????????} + 0x${_hb#????????}))
	_hi=$(((0x${_ha%????????} + 0x${_hb%????????} + (_lo >> 32)) & 0xffffffff))
	printf '%08x%08x\n' "$_hi" $((_lo & 0xffffffff))
}

# idlesim_per_cpu_offsets TRACEFS N: __per_cpu_offset[0..N], read by a
# probe of our own in a tracefs instance (the main buffer is not touched),
# printed as hexadecimal words; else nothing (the reason on stderr).
idlesim_per_cpu_offsets() {
	_t=$1
	_i="$_t/instances/idlesim_pco"
	rmdir "$_i" 2>/dev/null
	mkdir "$_i" 2>/dev/null || { echo "no tracefs instances" >&2; return 1; }
	_r=1
	_k=0
	_f=""
	while [ "$_k" -le "$2" ]; do
		_f="$_f o$_k=@__per_cpu_offset+$((_k * 8)):x64"
		_k=$((_k + 1))
	done
	# any function of the idle loop fires at once
	if echo "p:idlesim/idlesim_cal_pco tick_nohz_idle_stop_tick$_f" >> "$_t/kprobe_events" 2>/dev/null &&
		echo 1 > "$_i/events/idlesim/idlesim_cal_pco/enable" 2>/dev/null; then
		_k=0
		while [ "$_k" -lt 10 ] && ! grep -q 'idlesim_cal_pco:' "$_i/trace" 2>/dev/null; do
			sleep 1
			_k=$((_k + 1))
		done
		echo 0 > "$_i/tracing_on"
		_r=0
	fi
	_res=$(grep -m 1 'idlesim_cal_pco:' "$_i/trace" 2>/dev/null | tr ' ' '\n' | sed -n 's/^o[0-9]*=0x//p' | tr '\n' ' ')
	echo 0 > "$_i/events/idlesim/enable" 2>/dev/null
	rmdir "$_i" 2>/dev/null
	echo '-:idlesim/idlesim_cal_pco' >> "$_t/kprobe_events" 2>/dev/null
	[ "$_r" = 0 ] || { echo "the probe could not be placed: $(tail -n 1 "$_t/error_log" 2>/dev/null | sed 's/^ *//')" >&2; return 1; }
	[ -n "$_res" ] || { echo "no reading in 10 s" >&2; return 1; }
	echo "$_res"
}

# idlesim_sleep_length_from_stack TRACEFS: places idlesim_sleep_length with
# *delta_next read from the governor's frame (sets _ok and _how), where
# the offset can be measured for the governor running now; else says why
# in _how and fails.
idlesim_sleep_length_from_stack() {
	_gov=$(cat /sys/devices/system/cpu/cpuidle/current_governor_ro 2>/dev/null ||
		cat /sys/devices/system/cpu/cpuidle/current_governor 2>/dev/null)
	if ! _off=$(idlesim_delta_next_offset "$1" "$_gov" 2>&1); then
		_how=" (no *delta_next: this kernel's return probes read no argument, and its place in ${_gov}_select's frame was not found: $_off)"
		return 1
	fi
	# shellcheck disable=SC2016
	_s='r:idlesim/idlesim_sleep_length tick_nohz_get_sleep_length sleep_ns=$retval:s64 delta_next_ns=+'"${_off%% *}"'($stack):s64'
	echo "$_s" >> "$1/kprobe_events" 2>/dev/null || return 1
	_ok=$_s
	_how=" (from ${_gov}_select's frame: \$stack+${_off%% *} at the return, measured in ${_off#* } calls; valid while $_gov runs)"
}

# idlesim_delta_next_offset TRACEFS GOVERNOR: where GOVERNOR's select keeps
# *delta_next, as an offset from the stack pointer a return probe of
# tick_nohz_get_sleep_length() sees (the caller's, after the return), for
# kernels whose return probes cannot read the argument.  Pairs of an entry
# probe ($arg1: the variable's address) and a return probe ($stack) on one
# CPU, in a tracefs instance of its own (the main buffer is not touched),
# while every CPU is woken a few times; prints "OFFSET READINGS" when at
# least 3 of GOVERNOR_select's pairs were seen and all agree, else nothing
# (the reason on stderr).  Only the low 32 bits of the addresses are
# compared: the two lie within one stack.
idlesim_delta_next_offset() {
	_t=$1
	_g=$2
	_i="$_t/instances/idlesim_cal"
	case "$_g" in menu|teo) ;; *) echo "no calibration for governor '$_g' (reads no *delta_next)" >&2; return 1 ;; esac
	rmdir "$_i" 2>/dev/null
	mkdir "$_i" 2>/dev/null || { echo "no tracefs instances" >&2; return 1; }
	_r=1
	# shellcheck disable=SC2016
	if echo 'p:idlesim/idlesim_cal_in tick_nohz_get_sleep_length ptr=$arg1:x64' >> "$_t/kprobe_events" 2>/dev/null &&
		echo 'r:idlesim/idlesim_cal_out tick_nohz_get_sleep_length sp=$stack:x64' >> "$_t/kprobe_events" 2>/dev/null &&
		echo 1 > "$_i/events/idlesim/idlesim_cal_in/enable" 2>/dev/null &&
		echo 1 > "$_i/events/idlesim/idlesim_cal_out/enable" 2>/dev/null; then
		_r=0
		_n=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)
		_k=0
		while [ "$_k" -lt 20 ]; do
			_c=0
			while [ "$_c" -lt "${_n:-1}" ]; do
				taskset -c "$_c" true 2>/dev/null &
				_c=$((_c + 1))
			done
			wait
			sleep 1 &
			wait
			[ "$(grep -c "idlesim_cal_out: (${_g}_select+" "$_i/trace" 2>/dev/null)" -ge 20 ] && break
			_k=$((_k + 5))
		done
		echo 0 > "$_i/tracing_on"
	fi
	# shellcheck disable=SC2016
	_res=$(awk -v g="${_g}_select+" '
		function h(s,  n, i) {
			s = tolower(s); sub(/^0x/, "", s)
			if (length(s) > 8) s = substr(s, length(s) - 7)
			n = 0
			for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		{ if (!match($0, /\[[0-9]+\]/)) next; cpu = substr($0, RSTART + 1, RLENGTH - 2) }
		/idlesim_cal_in:/ { v = $0; sub(/.*ptr=/, "", v); sub(/ .*/, "", v); ptr[cpu] = v; next }
		/idlesim_cal_out:/ {
			if (index($0, "(" g) && (cpu in ptr)) {
				v = $0; sub(/.*sp=/, "", v); sub(/ .*/, "", v)
				k = (h(ptr[cpu]) - h(v) + 4294967296) % 4294967296
				seen[k]++; n++
			}
			delete ptr[cpu]
		}
		END {
			for (k in seen) { m++; only = k + 0 }
			if (n < 3) { print "only " n + 0 " readings"; exit }
			if (m != 1) { print "the readings disagree"; exit }
			if (only >= 4096 || only % 8) { print "offset " only " is not a stack slot"; exit }
			print "ok " only " " n
		}' "$_i/trace" 2>/dev/null)
	echo 0 > "$_i/events/idlesim/enable" 2>/dev/null
	rmdir "$_i" 2>/dev/null
	echo '-:idlesim/idlesim_cal_in' >> "$_t/kprobe_events" 2>/dev/null
	echo '-:idlesim/idlesim_cal_out' >> "$_t/kprobe_events" 2>/dev/null
	[ "$_r" = 0 ] || { echo "the calibration probes could not be placed" >&2; return 1; }
	case "$_res" in
	ok\ *) echo "${_res#ok }" ;;
	*) echo "${_res:-no readings}" >&2; return 1 ;;
	esac
}

# The kernel command line's kprobe_event= value placing the same probes
# from boot (their richest forms; the kernel enables them at once and logs
# "Failed to add event" for one it refuses): a capture that starts at boot
# then holds the governor's whole history, as the series' events do.
idlesim_probes_cmdline() {
	echo "$IDLESIM_PROBES" | while IFS='|' read -r _name _d1 _d2; do
		if [ -n "$_name" ]; then
			printf '%s;' "$(echo "$_d1" | tr ' ' ',')"
		fi
	done | sed 's/;$//'
}

idlesim_probes_remove() {
	_t=$1
	[ -d "$_t/events/idlesim" ] || return 0
	echo 0 > "$_t/events/idlesim/enable" 2>/dev/null
	for _e in "$_t"/events/idlesim/idlesim_*; do
		[ -d "$_e" ] && echo "-:idlesim/$(basename "$_e")" >> "$_t/kprobe_events" 2>/dev/null
	done
	return 0
}
