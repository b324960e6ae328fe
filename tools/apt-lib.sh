# SPDX-License-Identifier: GPL-2.0-only
# Sourced by tools/install-deps and tools/kernel/validate (sh and bash).
#
# Package steps that survive a broken or mid-sync mirror index they do not
# need.  `apt-get update` exits non-zero when any one index fails (seen: the
# security suite's ppc64el index "File has unexpected size ... Mirror sync
# in progress?" for a quarter of an hour), yet it keeps every index that did
# download.  So its exit status is reported, not obeyed: success is judged
# by whether the needed packages can then be installed (or downloaded).  A
# failure is retried after a pause (doubling); a real one names the
# packages that cannot be had.
#
#   apt_ensure PKG...            install those of PKG not installed yet
#   apt_download_foreign ARCH STATEDIR DESTDIR PKG...
#                                download PKG for ARCH into DESTDIR with a
#                                private apt state (lists, cache, status) in
#                                STATEDIR: the host's dpkg architectures and
#                                apt lists are never touched, so no later
#                                `apt-get update` on the host fails for it
#   apt_download_suite SUITE STATEDIR DESTDIR PKG...
#                                download PKG (the host's architecture) from
#                                another suite of the host's Debian archive
#                                (e.g. bookworm-backports), again with a
#                                private apt state and a private sources
#                                entry in STATEDIR: the host's sources stay
#                                as they are
#
# Environment: IDLESIM_APT_TRIES (default 4), IDLESIM_APT_PAUSE (seconds
# before the second try, default 15), IDLESIM_APT_OPTS (extra options for
# every apt-get call, e.g. a private sources directory; tools/test-apt).

apt_say() { echo "apt: $*" >&2; }

# apt_missing PKG...: prints those not installed
apt_missing() {
	for _p in "$@"; do
		dpkg-query -W -f='${Status}' "$_p" 2>/dev/null | grep -q "install ok installed" ||
			printf ' %s' "$_p"
	done
}

# apt_retry WHAT CHECK-COMMAND...: apt-get update, then CHECK-COMMAND,
# until CHECK-COMMAND succeeds or the tries run out.  The update's own
# apt-get options come from $_apt_update_opts.
apt_retry() {
	_what=$1
	shift
	_tries=${IDLESIM_APT_TRIES:-4}
	_pause=${IDLESIM_APT_PAUSE:-15}
	_i=1
	while :; do
		# shellcheck disable=SC2086
		if ! apt-get update -qq $_apt_update_opts ${IDLESIM_APT_OPTS:-}; then
			apt_say "apt-get update reported a failure (try $_i of $_tries): going on if $_what still works"
		fi
		if "$@"; then
			[ "$_i" = 1 ] || apt_say "$_what worked at try $_i"
			return 0
		fi
		[ "$_i" -ge "$_tries" ] && return 1
		apt_say "$_what failed (try $_i of $_tries); trying again in ${_pause}s"
		sleep "$_pause"
		_i=$((_i + 1))
		_pause=$((_pause * 2))
	done
}

# apt_unavailable OPTS PKG...: names each package apt cannot find
apt_unavailable() {
	_o=$1
	shift
	for _p in "$@"; do
		# shellcheck disable=SC2086
		apt-cache $_o ${IDLESIM_APT_OPTS:-} show "$_p" >/dev/null 2>&1 ||
			apt_say "package $_p: not in any index apt could read"
	done
}

_apt_install() {
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${IDLESIM_APT_OPTS:-} $_apt_pkgs
}

apt_ensure() {
	_apt_pkgs=$(apt_missing "$@")
	[ -n "$_apt_pkgs" ] || return 0
	apt_say "installing$_apt_pkgs"
	_apt_update_opts=""
	if apt_retry "installing$_apt_pkgs" _apt_install; then
		return 0
	fi
	# shellcheck disable=SC2086
	apt_unavailable "" $_apt_pkgs
	apt_say "FAILED to install$_apt_pkgs"
	return 1
}

_apt_download() {
	# shellcheck disable=SC2086
	(cd "$_apt_dest" && apt-get download -qq $_apt_update_opts ${IDLESIM_APT_OPTS:-} $_apt_pkgs)
}

apt_download_foreign() {
	_apt_arch=$1
	_apt_state=$2
	_apt_dest=$3
	shift 3
	_apt_pkgs="$*"
	mkdir -p "$_apt_state/lists/partial" "$_apt_state/cache/archives/partial" "$_apt_dest"
	: > "$_apt_state/status"
	# the architecture as apt's own (native) one; lists, cache and dpkg
	# status all private: nothing of the host's apt state changes
	_apt_update_opts="-o APT::Architecture=$_apt_arch -o APT::Architectures::=$_apt_arch
		-o Dir::State::Lists=$_apt_state/lists -o Dir::State::status=$_apt_state/status
		-o Dir::Cache=$_apt_state/cache -o APT::Sandbox::User=root"
	_apt_private_download "for $_apt_arch"
}

# _apt_private_download WHERE: download $_apt_pkgs into $_apt_dest with the
# private apt state of $_apt_update_opts, retried; a failure names the
# packages no index has
_apt_private_download() {
	if apt_retry "downloading $_apt_pkgs $1" _apt_download; then
		return 0
	fi
	# shellcheck disable=SC2086
	apt_unavailable "$_apt_update_opts" $_apt_pkgs
	apt_say "FAILED to download $_apt_pkgs $1"
	return 1
}

# apt_debian_source: the URIs and keyring of the host's own Debian archive
# (the source entry that serves the release's codename, deb822 or one-line
# form), as "URI KEYRING"; nothing when there is none.
apt_debian_source() {
	_code=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$_code" ] || return 0
	for _f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$_f" ] || continue
		awk -v code="$_code" '
		function flush() { if (uri != "" && suites ~ "(^| )" code "( |$)" && !done) { print uri, key; done = 1 }
			uri = ""; suites = ""; key = "" }
		/^[ \t]*$/ { flush(); next }
		tolower($1) == "uris:" { uri = $2 }
		tolower($1) == "suites:" { $1 = ""; suites = $0; sub(/^ /, "", suites) }
		tolower($1) == "signed-by:" { key = $2 }
		END { flush() }' "$_f"
	done | head -1 | grep . && return 0
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk -v code="$_code" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++
			if ($(i + 1) == code) { print $i, "/usr/share/keyrings/debian-archive-keyring.gpg"; exit } }'
}

apt_download_suite() {
	_apt_suite=$1
	_apt_state=$2
	_apt_dest=$3
	shift 3
	_apt_pkgs="$*"
	# the URI and the keyring, as two words
	# shellcheck disable=SC2046
	set -- $(apt_debian_source)
	if [ -z "${1:-}" ]; then
		apt_say "no Debian archive among the host's apt sources: cannot reach $_apt_suite"
		return 1
	fi
	mkdir -p "$_apt_state/lists/partial" "$_apt_state/cache/archives/partial" "$_apt_state/sources" "$_apt_dest"
	: > "$_apt_state/status"
	printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"$1" "$_apt_suite" "${2:-/usr/share/keyrings/debian-archive-keyring.gpg}" > "$_apt_state/sources/suite.sources"
	_apt_update_opts="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$_apt_state/sources
		-o Dir::State::Lists=$_apt_state/lists -o Dir::State::status=$_apt_state/status
		-o Dir::Cache=$_apt_state/cache -o APT::Sandbox::User=root"
	_apt_private_download "from $_apt_suite"
}
