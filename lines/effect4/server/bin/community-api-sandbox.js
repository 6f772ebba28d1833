#!/usr/bin/env node
// The `community-api-sandbox` command of the installed package: the sandbox (flags as for `pnpm start`
// in the repository), bundled with the Effect 3 runtime it is written on, in a process of its own.
import "../engine/sandbox.js"
