#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the validation guest: run the workload with the trace events on
# (enabled from boot by trace_event= on the command line), then print the
# trace, gzipped and base64-encoded, between markers on the console.
/bin/busybox --install -s /bin
mount -t proc none /proc
mount -t sysfs none /sys
mount -t tracefs none /sys/kernel/tracing 2>/dev/null
mount -t debugfs none /sys/kernel/debug 2>/dev/null
T=/sys/kernel/tracing
secs=$(sed -n 's/.*idlesim\.seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$secs" ] || secs=5
C=/sys/devices/system/cpu/cpuidle
echo "IDLESIM-INFO driver=$(cat $C/current_driver) governor=$(cat $C/current_governor_ro 2>/dev/null || cat $C/current_governor) cpus=$(nproc)"
# The state table as the driver registered it, file by file, so that the
# host can rebuild the sysfs directory and load it with --states DIR.
for d in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
	for f in "$d"/*; do
		[ -f "$f" ] && echo "IDLESIM-SYSFS $(basename "$d") $(basename "$f") $(cat "$f")"
	done
done
for p in /sys/module/teo/parameters/*; do
	[ -e "$p" ] && echo "IDLESIM-PARAM $(basename "$p")=$(cat "$p")"
done
# KUnit results (run at boot), as TAP lines from the kernel log
dmesg | grep -E '^ *(# |ok |not ok |KTAP|1\.\.)' | sed 's/^/IDLESIM-KUNIT /'
# A stock capture (idlesim.stock=1) holds only the workload's interval, as
# a user's capture would: drop what the events recorded during boot.
grep -q 'idlesim\.stock=1' /proc/cmdline && echo > $T/trace
# idlesim.tracedat=EVENTS: the capture is made by trace-cmd record instead
# (the image carries the host's trace-cmd and its libraries) and printed
# as a trace.dat between its own markers.
dat=$(sed -n 's/.*idlesim\.tracedat=\([^ ]*\).*/\1/p' /proc/cmdline)
# Every CPU's sysfs counters of every state, as "IDLESIM-COUNTERS WHEN cpuN
# stateK usage= time= above= below= rejected=".
counters() {
	for d in /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state*; do
		c=${d#/sys/devices/system/cpu/}
		echo "IDLESIM-COUNTERS $1 ${c%%/*} $(basename "$d") usage=$(cat "$d/usage") time=$(cat "$d/time") above=$(cat "$d/above") below=$(cat "$d/below") rejected=$(cat "$d/rejected")"
	done
}
# Every CPU's tick in NOHZ mode before the workload: the x86_64 guest
# switches to it only when the TSC clocksource is registered (the refined
# calibration, about 1.1 s after boot; before that the governors read
# KTIME_MAX sleep lengths), which fell 30 ms into the rt-app window.
# /proc/timer_list: ".nohz : 1" (6.12), ".nohz_mode : 1 or 2" (6.1).
nohz_wait() {
	n=$(nproc)
	i=0
	while [ $i -lt 200 ]; do
		k=$(grep -cE '^  \.nohz(_mode)? *: [12]' /proc/timer_list 2>/dev/null)
		[ "${k:-0}" -ge "$n" ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	echo "IDLESIM-INFO the tick is not in NOHZ mode on every CPU after 10 s"
}
# teo's span probe (tools/capture/probes.sh) reads the running kernel's
# addresses, so kprobe_event= cannot place it at boot: added here beside
# the probes placed from boot.
span_probe() {
	if [ -d $T/events/idlesim ] && [ ! -d $T/events/idlesim/idlesim_teo_span ] &&
		[ -f /probes.sh ]; then
		# shellcheck source=../capture/probes.sh
		. /probes.sh
		idlesim_teo_span_add $T | sed 's/^/IDLESIM-PROBE /'
	fi
}
if grep -q 'idlesim\.rtapp=1' /proc/cmdline && [ -e /workload.json ]; then
	# idlesim.rtapp=1: rt-app (the image carries Debian's, with its
	# libraries) runs /workload.json; its logs come back as a tar.
	# The trace keeps everything since boot (the governor's history, for
	# an exact replay); markers in it say when rt-app ran.
	mkdir -p /rtapp
	nohz_wait
	# The kprobe events a stock capture adds (tools/capture/probes.sh):
	# placed from boot by kprobe_event= where the command line has it,
	# else here, unless idlesim.noprobes=1; their lines say which took.
	if [ -d $T/events/idlesim ]; then
		for e in $T/events/idlesim/idlesim_*; do
			echo "IDLESIM-PROBE ${e##*/idlesim_} from boot, enabled $(cat "$e/enable")"
		done
		span_probe
	elif [ -f /probes.sh ] && ! grep -q 'idlesim\.noprobes=1' /proc/cmdline; then
		# shellcheck source=../capture/probes.sh
		. /probes.sh
		idlesim_probes_add $T | sed 's/^/IDLESIM-PROBE /'
	fi
	counters before
	echo "idlesim: rt-app start" > $T/trace_marker
	(cd /rtapp && /usr/bin/rt-app /workload.json > /rtapp/rt-app.out 2>&1) ||
		echo "IDLESIM-INFO rt-app exited with $?"
	echo "idlesim: rt-app end" > $T/trace_marker
	echo 0 > $T/tracing_on
	counters after
	echo "IDLESIM-RTAPP-BEGIN"
	tar -C /rtapp -cf - . | gzip -1 | base64
	echo "IDLESIM-RTAPP-END"
elif grep -q 'idlesim\.capture=1' /proc/cmdline && [ -x /idlesim-capture ]; then
	# idlesim.capture=1: tools/capture/idlesim-capture records the
	# workload as a user would, on its own events and probes; the bundle
	# comes back as a tar between markers.
	nohz_wait
	echo 0 > $T/events/enable
	if [ -e /workload.json ] && [ -x /usr/bin/rt-app ]; then
		# an rt-app file in the image: idlesim-capture -- rt-app FILE,
		# recording while rt-app runs (its logs go to /rtapp)
		mkdir -p /rtapp
		(cd /rtapp && /idlesim-capture -o /bundle -- /usr/bin/rt-app /workload.json 2>&1) |
			sed 's/^/IDLESIM-INFO capture: /'
	else
		/idlesim-capture -o /bundle --duration $((secs + 5)) -- /workload "$secs" 2>&1 |
			sed 's/^/IDLESIM-INFO capture: /'
	fi
	echo "IDLESIM-BUNDLE-BEGIN"
	tar -C / -cf - bundle | gzip -1 | base64
	echo "IDLESIM-BUNDLE-END"
elif [ -n "$dat" ] && [ -x /usr/bin/trace-cmd ]; then
	echo 0 > $T/tracing_on
	echo > $T/trace
	args=""
	for e in $(echo "$dat" | tr ',' ' '); do
		args="$args -e $e"
	done
	# shellcheck disable=SC2086
	/usr/bin/trace-cmd record -q -b 20000 --file-version 6 -o /trace.dat $args /workload "$secs" >/dev/null 2>&1 ||
		echo "IDLESIM-INFO trace-cmd record failed"
	echo "IDLESIM-DAT-BEGIN"
	gzip -1 < /trace.dat | base64
	echo "IDLESIM-DAT-END"
else
	span_probe
	/workload "$secs"
fi
# Keep every CPU busy so that no idle period (and no governor update)
# happens between the end of the trace and the weights dump.  The weights
# go out first and the spinners stop before the trace does: on QEMU's
# instruction-count clock every instruction costs the host, and spinners
# beside the trace's gzip and base64 made that phase, most of a boot,
# about twice as long.
spinners=""
for c in $(seq 0 $(($(nproc) - 1))); do
	/workload spin "$c" &
	spinners="$spinners $!"
done
usleep 300000
echo 0 > $T/tracing_on
if [ -e /sys/kernel/debug/wteo/weights ]; then
	echo "IDLESIM-WEIGHTS-BEGIN"
	cat /sys/kernel/debug/wteo/weights
	echo "IDLESIM-WEIGHTS-END"
fi
kill $spinners
echo "IDLESIM-TRACE-BEGIN"
gzip -1 < $T/trace | base64
echo "IDLESIM-TRACE-END"
# idlesim.extract=1: the same ring buffer once more, as a trace.dat made
# by trace-cmd extract (after the text, which it consumes): its stamps
# are the trace clock's nanoseconds, where the text rounds to the
# microsecond, and teo's hit test (time_span_ns >= sleep_length_ns) sits
# within a microsecond of its edge.
if grep -q 'idlesim\.extract=1' /proc/cmdline && [ -x /usr/bin/trace-cmd ]; then
	(cd / && /usr/bin/trace-cmd extract -o /extract.dat > /extract.log 2>&1) ||
		{ echo "IDLESIM-INFO trace-cmd extract failed:"; tail -5 /extract.log | sed 's/^/IDLESIM-INFO   /'; }
	if [ -s /extract.dat ]; then
		echo "IDLESIM-DAT-BEGIN"
		gzip -1 < /extract.dat | base64
		echo "IDLESIM-DAT-END"
	fi
fi
echo "IDLESIM-DONE"
reboot -f
