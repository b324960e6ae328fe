#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract.sh SOURCE OUTDIR SUFFIX [PATCHES]: copies drivers/cpuidle/
# governors/{teo,menu,ladder}.c of a Debian linux-source package into
# OUTDIR as teo-SUFFIX.c, menu-SUFFIX.c and ladder-SUFFIX.c, and gov.h when
# the tree has one (6.12's teo.c and menu.c include it).  With PATCHES (the
# series, tools/kernel/patches), also teo.c with the series' teo.c and
# wteo.h hunks applied, as teo-wteo-SUFFIX.c and wteo.h.  SOURCE is the
# package's tarball (/usr/src/linux-source-6.12.tar.xz) or an unpacked
# tree.  The files are never part of the repository: tests/kernel-c builds
# them into plugins with `idlesim kgov build`.
set -eu
src=$1
out=$(cd "$2" && pwd)
sfx=$3
patches=${4:+$(cd "$4" && pwd)}
d=drivers/cpuidle/governors
tmp=$(mktemp -d "$out/extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -d "$src" ]; then
	for f in teo.c menu.c ladder.c; do
		cp "$src/$d/$f" "$tmp/$f" || { echo "extract.sh: $src/$d/$f: missing" >&2; exit 1; }
	done
	[ ! -f "$src/$d/gov.h" ] || cp "$src/$d/gov.h" "$tmp/gov.h"
else
	top=$(tar -tf "$src" 2>/dev/null | head -1 | cut -d/ -f1) ||
		{ echo "extract.sh: $src: not a readable tarball" >&2; exit 1; }
	tar -xf "$src" -C "$tmp" --occurrence=1 --strip-components=4 \
		"$top/$d/teo.c" "$top/$d/menu.c" "$top/$d/ladder.c" ||
		{ echo "extract.sh: $src: no $d/{teo,menu,ladder}.c in it" >&2; exit 1; }
	tar -xf "$src" -C "$tmp" --occurrence=1 --strip-components=4 "$top/$d/gov.h" 2>/dev/null || true
fi
if [ -n "$patches" ]; then
	mkdir -p "$tmp/series/$d"
	cp "$tmp/teo.c" "$tmp/series/$d/teo.c"
	for p in "$patches"/*.patch; do
		GIT_CEILING_DIRECTORIES=$tmp git -C "$tmp/series" apply --include="$d/teo.c" --include="$d/wteo.h" "$p" ||
			{ echo "extract.sh: $p does not apply to $d/teo.c" >&2; exit 1; }
	done
	# git apply skips paths outside a repository it finds above: none here
	[ -f "$tmp/series/$d/wteo.h" ] && ! cmp -s "$tmp/teo.c" "$tmp/series/$d/teo.c" ||
		{ echo "extract.sh: the series left $d/teo.c unchanged" >&2; exit 1; }
	mv "$tmp/series/$d/teo.c" "$out/teo-wteo-$sfx.c"
	mv "$tmp/series/$d/wteo.h" "$out/wteo.h"
fi
for f in teo menu ladder; do
	mv "$tmp/$f.c" "$out/$f-$sfx.c"
done
[ ! -f "$tmp/gov.h" ] || mv "$tmp/gov.h" "$out/gov.h"
