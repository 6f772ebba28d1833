#!/usr/bin/env node
// The `community-api-mcp` command: the program compiled by `scripts/bundle.mjs` (`pnpm install` and
// `pnpm test` make it; `pnpm --filter @community-api/mcp bundle` remakes it).
import "../build/community-api-mcp.js"
