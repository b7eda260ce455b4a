#!/usr/bin/env node
import { processIo } from "./args.ts"
import { runCli } from "./run.ts"

/** The `paykit` bin (`@paykit/server`'s `bin`): `paykit <command>`, docs/cli.md. */
process.exitCode = await runCli(process.argv.slice(2), processIo)
