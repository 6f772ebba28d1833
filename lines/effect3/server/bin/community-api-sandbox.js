#!/usr/bin/env node
// The `community-api-sandbox` command of the installed package: the sandbox from the compiled `dist`
// (flags as for `pnpm start`). Inside the repository, `npx -y pnpm@10 start` runs the bundle that
// `scripts/bundle.mjs` makes in `build/` instead (`dist` there imports the workspace's TypeScript).
import "../dist/bin.js"
