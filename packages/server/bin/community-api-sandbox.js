#!/usr/bin/env node
// The `community-api-sandbox` command of the installed package: the sandbox from the compiled `dist`
// (flags as for `pnpm start`). Inside the repository, `npx -y pnpm@10 start` runs the sources instead.
import "../dist/bin.js"
