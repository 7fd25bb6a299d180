#!/usr/bin/env bash
# The user Dockerfile's steps without a Docker daemon (docs/install.md "What is verified without
# Docker"): packs this checkout, then runs the Dockerfile's COPY and RUN commands with the image's
# paths mapped into a temporary root ($root/tmp for /tmp, the prefix $root/usr-local for /usr/local,
# $root/work for /work), then its USER/WORKDIR/ENTRYPOINT/CMD as a non-root user (nobody, when run as
# root): `chatbench --help` (the CMD), `--version` and `demo --quick`. Two deviations, both so that
# nothing outside $root changes: `--prefer-offline` (the tarball's dependencies come from the npm
# cache when they are there) and `npm cache clean --force` on an empty cache of its own, not the
# machine's. Not verified here: the base image (node:20-slim) itself, its Node and npm versions,
# the `node` user, the build context BuildKit sends (Dockerfile.dockerignore).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(mktemp -d "${TMPDIR:-/tmp}/chatbench-dockerfile.XXXXXX")"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/tmp" "$root/usr-local"
echo "== npm pack (COPY chatbench-*.tgz /tmp/)"
npm pack --silent --pack-destination "$root/tmp" >/dev/null
tarballs=("$root"/tmp/chatbench-*.tgz)
[ "${#tarballs[@]}" -eq 1 ] || { echo "expected one tarball, got ${#tarballs[@]}" >&2; exit 1; }
echo "== RUN npm install --global … && rm … && npm cache clean --force && mkdir /work"
npm install --global --prefix "$root/usr-local" --no-audit --no-fund --prefer-offline "$root"/tmp/chatbench-*.tgz
rm "$root"/tmp/chatbench-*.tgz
npm cache clean --force --cache "$root/empty-cache" 2>/dev/null
mkdir "$root/work"
as_user=()
if [ "$(id -u)" = 0 ]; then
  chmod 755 "$root"
  chown nobody "$root/work"
  as_user=(runuser -u nobody --)
fi
run() { (cd "$root/work" && "${as_user[@]}" env HOME="$root/work" PATH="$root/usr-local/bin:$PATH" chatbench "$@"); }
echo "== USER, WORKDIR /work, ENTRYPOINT chatbench, CMD --help"
run --help | head -3
echo "== chatbench --version: $(run --version)"
echo "== chatbench demo --quick"
run demo --quick | tail -1
echo "dockerfile dry run: ok"
