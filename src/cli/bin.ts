#!/usr/bin/env node
// The package's executable (`store-admin-contract`): runs one command line (./index.ts) and exits
// with its code. `npm start` and `npm run conformance` run this file too.
import { runCli } from './index.ts';

process.exitCode = await runCli(process.argv.slice(2));
