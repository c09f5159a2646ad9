#!/usr/bin/env bash
# Install the pinned Claude Code CLI for the end-to-end tests (tests/e2e), outside the repo.
# Idempotent: a second run with the pinned version already present does nothing.
# Prints the path of the `claude` binary on its last line.
#   SANE_E2E_DIR      where to install (default: $HOME/.cache/sane-e2e)
#   SANE_CLAUDE_VERSION  the exact version (default: the pin below)
set -euo pipefail

VERSION="${SANE_CLAUDE_VERSION:-2.1.330}"
DIR="${SANE_E2E_DIR:-$HOME/.cache/sane-e2e}"
BIN="$DIR/node_modules/.bin/claude"

log() { echo "install_claude: $*" >&2; }

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        log "node/npm missing: installing nodejs and npm with apt-get"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq nodejs npm >&2
    else
        log "node/npm missing and cannot install them (not root or no apt-get)"
        exit 1
    fi
fi

installed_version() {
    [ -x "$BIN" ] || return 1
    # The npm package's own package.json names the version without running the binary.
    node -e 'process.stdout.write(require(process.argv[1]).version)' \
        "$DIR/node_modules/@anthropic-ai/claude-code/package.json" 2>/dev/null
}

if [ "$(installed_version || true)" = "$VERSION" ] && "$BIN" --version >/dev/null 2>&1; then
    log "claude-code $VERSION already installed in $DIR"
else
    log "installing @anthropic-ai/claude-code@$VERSION into $DIR"
    mkdir -p "$DIR"
    [ -f "$DIR/package.json" ] ||
        echo '{"name": "sane-e2e-cli", "private": true}' > "$DIR/package.json"
    start=$(date +%s)
    # --include=optional: the native binary lives in the optional dependency
    # @anthropic-ai/claude-code-linux-x64 (the npm package itself is a small wrapper).
    (cd "$DIR" && npm install --no-audit --no-fund --include=optional --save-exact \
        "@anthropic-ai/claude-code@$VERSION" >&2)
    log "installed in $(( $(date +%s) - start )) s"
    "$BIN" --version >&2
fi
echo "$BIN"
