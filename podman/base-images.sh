#!/usr/bin/env bash
# The Dockerfile's base images made from Debian's packages, for a builder that reaches no image registry
# (docs/DEPLOYMENT.md, "Podman without a registry"): mmdebstrap builds a Debian root file system with the JDK or JRE,
# podman imports it. Then:
#   podman build --network host --build-arg BUILD_IMAGE=localhost/tracesync-build-base:bookworm \
#       --build-arg RUNTIME_IMAGE=localhost/tracesync-runtime-base:bookworm -t tracesync:0.1.0-SNAPSHOT .
# Needs root (or podman unshare), mmdebstrap and podman (Debian: apt-get install mmdebstrap podman); a minute or two.
# The host's own CA certificates (/usr/local/share/ca-certificates, e.g. those of a proxy that inspects TLS) are
# trusted in both images, so that the build reaches Maven Central where the host does.
set -euo pipefail
suite="${SUITE:-bookworm}"
for tool in mmdebstrap podman; do
  command -v "$tool" >/dev/null || { echo "base-images.sh: $tool is missing (Debian: apt-get install $tool)" >&2; exit 2; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
hooks=(--customize-hook='chroot "$1" update-ca-certificates --fresh >/dev/null 2>&1')
if [ -d /usr/local/share/ca-certificates ]; then
  hooks=(--customize-hook='copy-in /usr/local/share/ca-certificates /usr/local/share' "${hooks[@]}")
fi
# name, Debian release, packages: the build needs a JDK (the Maven wrapper fetches Maven), the runtime a JRE and
# apt-get; the schema registry (podman/registry.Dockerfile) a Java 21 runtime, which Debian packages from release 13
images=("tracesync-build-base $suite openjdk-17-jdk-headless,curl,ca-certificates,ca-certificates-java"
        "tracesync-runtime-base $suite openjdk-17-jre-headless,ca-certificates,ca-certificates-java"
        "tracesync-registry-base trixie openjdk-21-jre-headless,curl,ca-certificates,ca-certificates-java")
for image in "${images[@]}"; do
  read -r name release packages <<< "$image"
  echo "base-images.sh: localhost/$name:$release ..." >&2
  mmdebstrap --quiet --variant=apt --include="$packages" "${hooks[@]}" "$release" "$work/$name.tar"
  podman import --quiet "$work/$name.tar" "localhost/$name:$release" >/dev/null
  rm -f "$work/$name.tar"
done
podman images --filter reference='localhost/tracesync-*-base'
