#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# extract.sh SOURCE PATCHES OUTDIR: copies drivers/cpuidle/governors/{teo,
# menu,ladder}.c and gov.h of Debian's linux-source-6.12 into OUTDIR as
# teo.inc, menu.inc, ladder.inc and gov.h (.inc: meson must not compile
# them on their own; kc-*.c include them), and teo.c with the teo.c and
# wteo.h hunks of the series in PATCHES applied as teo-wteo.inc and
# wteo.h.  SOURCE is the package's tarball
# (/usr/src/linux-source-6.12.tar.xz) or an unpacked tree.
set -eu
src=$1
patches=$(cd "$2" && pwd)
out=$(cd "$3" && pwd)
d=drivers/cpuidle/governors
tmp=$(mktemp -d "$out/extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -d "$src" ]; then
	for f in teo.c menu.c ladder.c gov.h; do
		cp "$src/$d/$f" "$tmp/$f" || { echo "extract.sh: $src/$d/$f: missing" >&2; exit 1; }
	done
else
	top=$(tar -tf "$src" 2>/dev/null | head -1 | cut -d/ -f1) ||
		{ echo "extract.sh: $src: not a readable tarball" >&2; exit 1; }
	tar -xf "$src" -C "$tmp" --occurrence=1 --strip-components=4 \
		"$top/$d/teo.c" "$top/$d/menu.c" "$top/$d/ladder.c" "$top/$d/gov.h" ||
		{ echo "extract.sh: $src: no $d/{teo,menu,ladder}.c, gov.h in it" >&2; exit 1; }
fi
mkdir -p "$tmp/series/$d"
cp "$tmp/teo.c" "$tmp/series/$d/teo.c"
for p in "$patches"/*.patch; do
	GIT_CEILING_DIRECTORIES=$tmp git -C "$tmp/series" apply --include="$d/teo.c" --include="$d/wteo.h" "$p" ||
		{ echo "extract.sh: $p does not apply to $d/teo.c" >&2; exit 1; }
done
# git apply skips paths outside a repository it finds above: none here
[ -f "$tmp/series/$d/wteo.h" ] && ! cmp -s "$tmp/teo.c" "$tmp/series/$d/teo.c" ||
	{ echo "extract.sh: the series left $d/teo.c unchanged" >&2; exit 1; }
for f in teo menu ladder; do
	mv "$tmp/$f.c" "$out/$f.inc"
done
mv "$tmp/series/$d/teo.c" "$out/teo-wteo.inc"
mv "$tmp/series/$d/wteo.h" "$out/wteo.h"
mv "$tmp/gov.h" "$out/gov.h"
