# SPDX-License-Identifier: GPL-2.0-only
# Shell functions of tools/sim-vs-kernel and tools/svk/measure (sourced).
# They use $IDLESIM and a scratch directory $T.

# run_params of tools/kernel/validate, for idlesim's side of a run name
sim_of() {
	local r=${1%-paylat}
	case "$r" in
	menu) echo "menu-6.12" ;;
	teo) echo "teo-6.12" ;;
	wteo) echo "wteo" ;;
	wteo-chosen) echo "wteo -p range=chosen -p poll=avoid" ;;
	wteo-aging-initial) echo "wteo -p aging=initial -p aging_rate=16 -p aging_period_ms=10" ;;
	wteo-aging-maxp) echo "wteo -p aging=max-periodic -p aging_rate=64 -p aging_period_ms=1000" ;;
	*) echo "svk/measure: no idlesim governor for run $1" >&2; exit 1 ;;
	esac
}
name_of() { echo "${1%-paylat}"; }

# metric rows of a `run -f csv` output (one governor): shares per state
# index, per selection rates, energy, tick-stop share
csv_metrics() {
	awk -F, -v pre="$2" '
	# the params field is quoted and holds commas
	{ while (match($0, /"[^"]*"/)) $0 = substr($0, 1, RSTART - 1) "params" substr($0, RSTART + RLENGTH) }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
		n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^usage_/) { n++; u[n] = i; tm[n] = col["time_ns_" substr($i, 7)] }
		next }
	NR == 2 { sel = $col["selections"]; tu = 0; tt = 0
		for (k = 1; k <= n; k++) { tu += $u[k]; tt += $tm[k] }
		print pre "selections," sel
		for (k = 1; k <= n; k++) {
			printf "%susage_pct_s%d,%.4f\n", pre, k - 1, tu ? 100 * $u[k] / tu : 0
			printf "%stime_pct_s%d,%.4f\n", pre, k - 1, tt ? 100 * $tm[k] / tt : 0 }
		printf "%sabove_per_sel,%.6f\n", pre, sel ? $col["above"] / sel : 0
		printf "%sbelow_per_sel,%.6f\n", pre, sel ? $col["below"] / sel : 0
		printf "%senergy,%.1f\n", pre, $col["energy_active_ns"]
		printf "%stick_off_pct,%.4f\n", pre, $col["tick_stopped_pct"]
		printf "%slat_p50_us,%.3f\n", pre, $col["lat_p50_ns"] / 1000
		printf "%slat_p99_us,%.3f\n", pre, $col["lat_p99_ns"] / 1000
		printf "%sidle_ms,%.3f\n", pre, tt / 1e6 }' "$1"
}

# idlesim run ARGS: its notes (the window, estimated inputs) only on failure
sim_run() {
	"$IDLESIM" run "$@" 2> "$T/err" || { cat "$T/err" >&2; exit 1; }
}

