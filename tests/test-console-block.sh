#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tools/kernel/console-block on a guest console whose firmware and kernel
# printed into the blocks (tests/data/console-block.console: skiboot's two
# "SBE: Timer stuck" lines between two lines of the base64 trace, and again
# in the middle of one, as loaded ppc64le guests printed them; two printk
# lines in the weights, one in the middle of a row): the trace decodes to
# the original, the weights are the rows alone, and each piece dropped is
# named.
set -u
: "${TESTDATA:?}" "${SRCDIR:?}"
CB="$SRCDIR/tools/kernel/console-block"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if "$CB" "$TESTDATA/console-block.console" TRACE 2>"$T/err" | base64 -d | gunzip > "$T/trace" &&
	cmp -s "$T/trace" "$TESTDATA/console-block.expected"; then ok; else bad "the trace does not decode"; fi
[ "$(grep -c 'dropped console output: \[ *[0-9]*\.[0-9]*,3\] SBE' "$T/err")" = 4 ] && ok || bad "the four skiboot lines are not named"
"$CB" "$TESTDATA/console-block.console" WEIGHTS > "$T/w" 2>"$T/err"
printf 'cpu0\n0: 964 20 20 20\n1: 46 759 23 196\n' | cmp -s - "$T/w" && ok || bad "weights block: $(cat "$T/w")"
[ "$(grep -c "IDLESIM-WEIGHTS: dropped console output: \[   12.345.*\] rcu:" "$T/err")" = 2 ] && ok || bad "the printk lines are not named"
# without the filter the trace does not decode (the fixture tests something)
if sed -n '/IDLESIM-TRACE-BEGIN/,/IDLESIM-TRACE-END/p' "$TESTDATA/console-block.console" | tr -d '\r' | sed '1d;$d' |
	base64 -d 2>/dev/null | gunzip >/dev/null 2>&1; then bad "the unfiltered block decodes"; else ok; fi
echo "console-block: $pass passed, $fail failed"
[ "$fail" = 0 ]
