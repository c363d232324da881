#!/usr/bin/env bash
# Runs a command under Node.js >= 22.12 (what wrangler and vitest need):
#
#   scripts/with-node.sh npm test
#
# With a new enough `node` on PATH it runs the command as it is. Otherwise it puts
# the Node of .nvmrc (24 LTS) first on PATH, fetched once from the npm registry (the
# node-<os>-<arch> package, which npm checks against the registry's integrity hash)
# and kept in ${XDG_CACHE_HOME:-~/.cache}/edge-ids/node-<version>. The machine's npm
# then runs on it. Every npm script of edge-ids starts with it.
# No npm run here: this is what starts the right Node, so it cannot depend on one.
set -euo pipefail

NODE_VERSION=$(tr -d '[:space:]' <"$(dirname "$0")/../.nvmrc")
readonly NODE_VERSION
readonly MIN_MAJOR=22 MIN_MINOR=12

if [ "$#" -eq 0 ]; then
	echo "usage: scripts/with-node.sh <command...>   e.g. scripts/with-node.sh npm test" >&2
	exit 2
fi

new_enough() {
	local version major minor
	version=$(node --version 2>/dev/null) || return 1
	IFS=. read -r major minor _ <<<"${version#v}"
	((major > MIN_MAJOR || (major == MIN_MAJOR && minor >= MIN_MINOR)))
}

if ! new_enough; then
	case "$(uname -s)/$(uname -m)" in
	Linux/x86_64) platform=linux-x64 ;;
	Linux/aarch64) platform=linux-arm64 ;;
	Darwin/arm64) platform=darwin-arm64 ;;
	Darwin/x86_64) platform=darwin-x64 ;;
	*)
		echo "edge-ids needs Node.js >= $MIN_MAJOR.$MIN_MINOR; install Node $NODE_VERSION (https://nodejs.org) and run the command again." >&2
		exit 1
		;;
	esac
	if ! command -v npm >/dev/null; then
		echo "edge-ids needs Node.js >= $MIN_MAJOR.$MIN_MINOR, and npm to fetch it: neither is on PATH." >&2
		exit 1
	fi
	home="${XDG_CACHE_HOME:-$HOME/.cache}/edge-ids/node-$NODE_VERSION"
	if [ ! -x "$home/bin/node" ]; then
		echo "edge-ids: Node $(node --version 2>/dev/null || echo '(none)') is older than $MIN_MAJOR.$MIN_MINOR; fetching Node $NODE_VERSION from the npm registry into $home" >&2
		mkdir -p "$(dirname "$home")"
		# Unpack beside the cache entry, then rename it into place: a run that is
		# stopped halfway, or two runs at once, never leave a half-unpacked Node there.
		work=$(mktemp -d "$home.partial.XXXXXX")
		trap 'rm -rf "$work"' EXIT
		tarball=$(cd "$work" && npm pack --silent "node-$platform@$NODE_VERSION")
		tar -xzf "$work/$tarball" -C "$work"
		"$work/package/bin/node" --version >/dev/null
		[ -e "$home" ] || mv "$work/package" "$home"
		rm -rf "$work"
		trap - EXIT
	fi
	export PATH="$home/bin:$PATH"
fi

exec "$@"
