/**
 * The `drift` command: what a recording (`proxy --record FILE`) shows that the contract does not
 * say, and with --base-url/--token how a server's answers to the recorded reads differ in shape.
 * Exit codes (./exit-codes.ts): 0 no drift, 1 drift found, 2 usage error, 3 the run failed.
 */
import {
  formatDrift,
  formatProposal,
  INFORMATION,
  proposeFromRecording,
  RecordingError,
  runDrift,
  writeProposed,
} from '../drift/index.ts';
import { CommandError, EXIT, type ExitCode, UsageError } from './exit-codes.ts';
import { parseFlags } from './flags.ts';

export const DRIFT_USAGE = `drift --recording FILE [--base-url URL --token TOKEN] [--json] [--propose [--write] [--root DIR]]
  --recording FILE    a recording written by "proxy --record FILE"
  --propose           turn the findings into edits of openapi/ (a dry run: the edits, the guard's verdict, a diff)
  --write             with --propose: apply the edits, add them to openapi/changelogs/, rebuild
  --root DIR          with --propose: the contract checkout to edit (default: this package)
  --base-url URL      also replay the recorded reads (GET) against this server and diff the answers' shapes
  --token TOKEN       the bearer token for --base-url
  --json              print the report as JSON
  Exit codes: 0 no drift, 1 drift found, 2 usage error, 3 the run failed.`;

export async function runDriftCommand(args: string[]): Promise<ExitCode> {
  const values = parseFlags(args, {
    recording: { type: 'string' },
    'base-url': { type: 'string' },
    token: { type: 'string' },
    json: { type: 'boolean' },
    propose: { type: 'boolean' },
    write: { type: 'boolean' },
    root: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(`Usage: ${DRIFT_USAGE}`);
    return EXIT.ok;
  }
  if (!values.recording) throw new UsageError('drift needs --recording FILE');
  if ((values.write || values.root !== undefined) && !values.propose)
    throw new UsageError('--write and --root go with --propose');
  if (values.propose) return propose(values.recording, values.write === true, values.root, values.json === true);
  const baseUrl = values['base-url'];
  if ((baseUrl === undefined) !== (values.token === undefined))
    throw new UsageError('--base-url and --token go together');
  if (baseUrl !== undefined && !URL.canParse(baseUrl)) throw new UsageError(`--base-url "${baseUrl}" is not a URL`);
  try {
    const report = await runDrift({
      recording: values.recording,
      ...(baseUrl !== undefined && { replay: { baseUrl, token: values.token as string } }),
    });
    console.log(values.json ? JSON.stringify(report, null, 2) : formatDrift(report));
    return report.findings.some((f) => !INFORMATION.has(f.kind)) ? EXIT.contractBreak : EXIT.ok;
  } catch (error) {
    if (error instanceof RecordingError) throw new CommandError(error.message);
    throw error;
  }
}

async function propose(recording: string, write: boolean, root: string | undefined, json: boolean): Promise<ExitCode> {
  try {
    const options = { recording, ...(root !== undefined && { root }) };
    const judged = await proposeFromRecording(options);
    if (write) await writeProposed(judged, options);
    const { proposal, diff } = judged;
    const { files: _files, ...rest } = proposal;
    console.log(json ? JSON.stringify({ ...rest, diff }, null, 2) : formatProposal(proposal, diff, write));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof RecordingError) throw new CommandError(error.message);
    throw new CommandError(`drift --propose: ${(error as Error).message}`);
  }
}
