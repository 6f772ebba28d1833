#!/usr/bin/env node
// The `community-api` command: the program compiled by `scripts/bundle.mjs` (`pnpm install`, `pnpm cli`
// and `pnpm test` make it; `pnpm --filter @community-api/cli bundle` remakes it).
import "../build/community-api.js"
