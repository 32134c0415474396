/**
 * The benchmarks' one way to start a server in a node process of its own: it prints its URL on
 * stdout (`match` captures it); resolves with the URL and a `stop` that sends SIGTERM and waits.
 * `children` holds the processes still running, for the script's exit handler to kill.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface NodeServer {
  child: ChildProcess;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function spawnNode(
  args: string[],
  match: RegExp,
  options: { cwd: string; children: Set<ChildProcess>; env?: Record<string, string> },
): Promise<NodeServer> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  options.children.add(child);
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const found = match.exec(out);
      if (found?.[1]) done(found[1]);
    });
    child.once('exit', (code) => fail(new Error(`node ${args.join(' ')} exited with ${code}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    options.children.delete(child);
  };
  return { child, url, pid: child.pid as number, stop };
}
