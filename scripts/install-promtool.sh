#!/usr/bin/env bash
# Puts Prometheus's promtool in tools/promtool/promtool (gitignored) for the tests that run
# `promtool check metrics` on /metrics. It comes from Debian's `prometheus` package (19 MB), unpacked
# rather than installed: installing it would also start a Prometheus server on the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
target=tools/promtool/promtool
if [ -x "$target" ] || command -v promtool >/dev/null 2>&1; then exit 0; fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && { apt-get download prometheus >/dev/null 2>&1 || { apt-get update -qq && apt-get download prometheus >/dev/null; }; })
dpkg-deb --fsys-tarfile "$work"/prometheus_*.deb | tar -x -C "$work" ./usr/bin/promtool
mkdir -p tools/promtool
mv "$work/usr/bin/promtool" "$target"
echo "install-promtool: $("$target" --version 2>&1 | head -1)"
