#!/bin/sh
# The production install of a Tessera release, in the directory this script is in (its parent: the
# release's root). docs/deploying.md runs it on a server, the Dockerfile in its image's build; CI
# runs it as an unprivileged user on a copy of the repository
# (packages/server/test/operations/production-install.test.ts).
#
# 1. `npm ci` installs the dependencies of the four packages (server, koa, sdk, console) as the
#    lockfile pins them, and its `prepare` script builds every package (tsc, then the console with
#    Vite). The build needs their dev dependencies: `--include=dev` keeps them even when
#    NODE_ENV=production is in the environment. The repository's own tools for its tests and examples
#    (the root's dev dependencies: Next.js, Playwright, oidc-provider…) are not installed: 320 packages
#    instead of 529, 177 MB instead of 660 MB, for the same production tree.
# 2. `npm prune --omit=dev` then drops the dev dependencies (TypeScript, Vite, the test libraries).
#
# What is left runs with plain `node packages/server/bin/tessera.mjs` and writes nothing here: the
# directory may be read-only to the user that runs it. Needs Node 20.19+ and npm; from the network,
# npm's registry only, and for better-sqlite3's addon a prebuilt one from its GitHub releases or, when
# that cannot be fetched, python3, make and a C++ compiler to build it (node-gyp).
set -eu
cd "$(dirname "$0")/.."
npm ci --include=dev --no-audit --no-fund \
  --workspace=packages/server --workspace=packages/koa --workspace=packages/sdk --workspace=packages/console
npm prune --omit=dev --no-audit --no-fund
