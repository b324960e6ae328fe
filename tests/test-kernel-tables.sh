#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# src/states/kernel_tables.h is what tools/gen-kernel-tables makes now from
# Debian's linux-source-6.12 (the built-in tables from the kernel's own
# device trees and intel_idle.c).  Needs the tarball, cpp and dtc (tools/
# install-deps installs them); the unpacked part is cached in
# .cache/kernel/tables-src (about a minute the first time).
set -eu
: "${IDLESIM:?}"
SRC=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for p in cpp dtc; do
	command -v $p >/dev/null || { echo "FAIL: $p is not installed (tools/install-deps)"; exit 1; }
done
[ -f /usr/src/linux-source-6.12.tar.xz ] || { echo "FAIL: linux-source-6.12 is not installed"; exit 1; }
"$SRC/tools/gen-kernel-tables" "$IDLESIM" > "$T/kt.h"
if cmp -s "$T/kt.h" "$SRC/src/states/kernel_tables.h"; then
	echo "kernel_tables.h: up to date ($(grep -c 'KT(' "$T/kt.h") tables)"
else
	echo "FAIL: src/states/kernel_tables.h differs from what tools/gen-kernel-tables makes now:"
	diff "$SRC/src/states/kernel_tables.h" "$T/kt.h" | head -20
	exit 1
fi
