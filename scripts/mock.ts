/**
 * `npm start`: the Prism mock of every API version on one port (default http://127.0.0.1:4010).
 *
 *   npm start                          examples, on 127.0.0.1:4010
 *   PORT=8080 HOST=0.0.0.0 npm start   another port / interface (also --port, --host)
 *   npm start -- --dynamic             generated data (repeatable; --seed <s> changes it)
 *   npm start -- --examples            list the example names for `Prefer: example=<name>` and exit
 *   npm start -- --quiet               no per-request log line
 *
 * The command itself is scripts/mock/command.ts (shared with the published bin). Any error is one
 * line on stderr and exit code 1.
 */
import { MOCK_USAGE, MockStartError, MockUsageError, runMockCommand } from './mock/command.ts';

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`Usage: npm start -- ${MOCK_USAGE.replace(/^mock /, '')}`);
} else {
  try {
    await runMockCommand(args);
  } catch (error) {
    if (!(error instanceof MockUsageError || error instanceof MockStartError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
