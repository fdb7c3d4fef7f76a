#!/usr/bin/env bash
# Vendor the dashboard's JavaScript: install the packages exactly as package-lock.json pins them
# (node_modules/ here, not committed), then copy their browser builds and licences into
# rwshim/dashboard/static/vendor/, which is committed and ships in the wheel, so the page needs
# no CDN and no npm at run time.  VERSIONS records each file's package, version and sha256
# (tests/unit/dashboard/test_static.py checks them).  Run it after changing package.json:
#   (cd dashboard-js && npm install --package-lock-only) && bash dashboard-js/vendor.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
out=../rwshim/dashboard/static/vendor
mkdir -p "$out"
version() { node -p "require('./node_modules/$1/package.json').version"; }
: > "$out/VERSIONS"
copy() {  # package, file in the package, name in vendor/
  cp "node_modules/$1/$2" "$out/$3"
  echo "$3 $1@$(version "$1") sha256:$(sha256sum "$out/$3" | cut -d' ' -f1)" >> "$out/VERSIONS"
}
# dagre's browser build bundles graphlib and defines the global `dagre`.
copy @dagrejs/dagre dist/dagre.min.js dagre.min.js
copy @dagrejs/dagre LICENSE dagre.LICENSE
echo "vendored into rwshim/dashboard/static/vendor:" >&2
cat "$out/VERSIONS" >&2
