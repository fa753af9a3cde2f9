#!/usr/bin/env bash
# Docker Compose v2 for hosts whose Debian packages only the Python Compose 1.29 (Debian 12), which reads no
# top-level `name` and no `--wait`: the Go binary of Debian 13's package (one static file, no dependencies beyond
# glibc 2.34), checked against the SHA-256 that Debian's package index gives it, unpacked into a cache directory.
# Prints the binary's path. With Podman it talks to `podman system service` (docs/DEPLOYMENT.md).
#   DOCKER_HOST=unix:///run/podman/podman.sock "$(podman/compose-v2.sh)" up -d
set -euo pipefail
version=2.26.1-4
sha256=47681197cb2b1ab88206b42a1a92fc75f50d9530a6322d03494a473eed0408ea
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tracesync/docker-compose-$version"
binary="$cache/usr/libexec/docker/cli-plugins/docker-compose"
if [ ! -x "$binary" ]; then
  command -v dpkg-deb >/dev/null || { echo "compose-v2.sh: dpkg-deb is missing (a Debian host)" >&2; exit 2; }
  mkdir -p "$cache"
  deb="$cache/docker-compose_${version}_amd64.deb"
  curl -fsSL --retry 3 -o "$deb" "$mirror/pool/main/d/docker-compose/docker-compose_${version}_amd64.deb"
  echo "$sha256  $deb" | sha256sum --check --quiet
  dpkg-deb -x "$deb" "$cache"
  rm "$deb"
fi
echo "$binary"
