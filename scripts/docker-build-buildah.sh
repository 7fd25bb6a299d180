#!/usr/bin/env bash
# Builds the user Dockerfile, unchanged, with Debian's buildah and no Docker daemon nor Docker Hub
# (docs/install.md "Building the image without Docker Hub"), then runs the image as `docker run`
# would: as its USER in its WORKDIR, through its ENTRYPOINT. Needs root, buildah and debootstrap
# (`apt-get install buildah debootstrap`) and the npm registry; about two minutes.
#
# The one stand-in is the base: `node:20-slim` is built locally from a minimal Debian bookworm
# (debootstrap) with this machine's Node and npm in /usr/local and a `node` user (uid 1000), as the
# official image lays them out, and tagged under the official name so that the Dockerfile's FROM
# finds it without pulling. The machine's CA bundle is copied into that base (with
# NODE_EXTRA_CA_CERTS) for a network that inspects TLS; an image built from the real base needs
# neither.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "docker-build-buildah: run as root (buildah's chroot isolation)" >&2; exit 2; }
for tool in buildah debootstrap; do
  command -v "$tool" >/dev/null || { echo "docker-build-buildah: $tool is missing (apt-get install $tool)" >&2; exit 2; }
done
B=(buildah --storage-driver vfs)
context="$(mktemp -d "${TMPDIR:-/tmp}/chatbench-docker.XXXXXX")"
base=""
app=""
cleanup() {
  [ -n "$app" ] && "${B[@]}" rm "$app" >/dev/null 2>&1
  [ -n "$base" ] && "${B[@]}" rm "$base" >/dev/null 2>&1
  rm -rf "$context"
}
trap cleanup EXIT

echo "== the stand-in base: node:20-slim from debootstrap bookworm and $(node --version)"
base="$("${B[@]}" from scratch)"
root="$("${B[@]}" mount "$base")"
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib/node_modules"
cp "$node_bin" "$root/usr/local/bin/node"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
ca=(--env NODE_VERSION="$(node --version | tr -d v)")
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  mkdir -p "$root/etc/ssl/certs"
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  ca+=(--env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
fi
"${B[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${ca[@]}" --cmd node "$base"
"${B[@]}" commit --quiet "$base" docker.io/library/node:20-slim >/dev/null

echo "== npm pack, then the Dockerfile as it is (context: the tarball, as Dockerfile.dockerignore sends)"
npm pack --silent --pack-destination "$context" >/dev/null
cp Dockerfile "$context/Dockerfile"
start=$(date +%s)
"${B[@]}" bud --quiet --isolation chroot --network host --pull-never -t localhost/chatbench:dry -f "$context/Dockerfile" "$context" >/dev/null
echo "built in $(($(date +%s) - start)) s: $("${B[@]}" images --format '{{.Size}}' localhost/chatbench:dry)"

echo "== docker run --rm chatbench …, as the image's user in its working directory"
app="$("${B[@]}" from --pull-never localhost/chatbench:dry)"
user="$("${B[@]}" inspect --format '{{.OCIv1.Config.User}}' localhost/chatbench:dry)"
workdir="$("${B[@]}" inspect --format '{{.OCIv1.Config.WorkingDir}}' localhost/chatbench:dry)"
entrypoint="$("${B[@]}" inspect --format '{{index .OCIv1.Config.Entrypoint 0}}' localhost/chatbench:dry)"
cmd="$("${B[@]}" inspect --format '{{index .OCIv1.Config.Cmd 0}}' localhost/chatbench:dry)"
run() { "${B[@]}" run --isolation chroot --network host --user "$user" --workingdir "$workdir" "$app" -- "$entrypoint" "$@"; }
run "$cmd" > "$context/help.txt"
head -3 "$context/help.txt"
echo "chatbench --version: $(run --version)"
run demo --quick > "$context/demo.txt"
tail -2 "$context/demo.txt"
"${B[@]}" run --isolation chroot --user "$user" --workingdir "$workdir" "$app" -- sh -c 'echo "as $(id -un) in $(pwd): $(ls reports)"'
"${B[@]}" rm "$app" >/dev/null && app=""
"${B[@]}" rm "$base" >/dev/null && base=""
"${B[@]}" rmi localhost/chatbench:dry docker.io/library/node:20-slim >/dev/null
echo "docker-build-buildah: the image builds and runs"
