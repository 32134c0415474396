/**
 * A V8 CPU profile (`node --cpu-prof`, a `.cpuprofile` file) read as the mock's cost per stage, for
 * scripts/bench/mock.ts: each sample is given to the first engine stage on its stack
 * (src/mock/stages/<stage>.ts, called from the pipeline), else to the engine's intake (the request
 * read, the log, CORS), the rest of the project's code (the node adapter, src/http), node's own
 * HTTP and socket code (its writes of an answer apart), the garbage collector, or V8 itself; idle
 * samples are left out. Also the
 * functions with the most samples of their own (self time), the leaves of the flame graph.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  /** µs on the monotonic clock (process.hrtime's), then µs between samples. */
  startTime: number;
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Samples not idle. */
  samples: number;
  /** Share of the busy samples per part, largest first. */
  parts: [part: string, share: number][];
  /** Share of the busy samples per function (self time), largest first. */
  leaves: [fn: string, share: number][];
}

/**
 * The stage a frame runs in (its file in src/mock/stages/, but the pipeline's own; `.js` under the
 * built CLI, `mock.ts --mock`), or undefined.
 */
function stageOf(url: string): string | undefined {
  const stage = /\/src\/mock\/stages\/([\w-]+)\.[jt]s$/.exec(url)?.[1];
  return stage && !['context', 'intake', 'respond'].includes(stage) ? stage : undefined;
}

/** A sample's part: the first stage on its stack; else the intake, the collector or {@link fallbackPart}. */
function partOf(stack: ProfileNode[]): string {
  for (const frame of stack) {
    const stage = stageOf(frame.callFrame.url);
    if (stage) return `stage ${stage}`;
  }
  if (stack.some((frame) => /\/src\/mock\/stages\/intake\.[jt]s$/.test(frame.callFrame.url)))
    return 'intake (request read, log, CORS)';
  if (stack.at(-1)?.callFrame.functionName === '(garbage collector)') return 'garbage collector';
  return fallbackPart(stack);
}

/**
 * The part of a sample whose stack holds no stage: the project's code (the node adapter, src/http)
 * when a frame of it is the leaf, node writing or reading sockets (native or node: frames) for it
 * or on its own, V8 itself.
 */
function fallbackPart(stack: ProfileNode[]): string {
  const leaf = stack[stack.length - 1]?.callFrame;
  if (leaf && /\/src\/(mock|http)\//.test(leaf.url)) return 'node adapter (src/mock/server.ts, src/http)';
  if (leaf?.functionName === '(program)') return 'V8 (program)';
  const fromAdapter = stack.some((frame) => /\/src\/(mock|http)\//.test(frame.callFrame.url));
  if (leaf && (leaf.url.startsWith('node:') || leaf.url === ''))
    return fromAdapter ? 'node:http writing the answer (writev...)' : 'node:http, net (parser, sockets)';
  return 'other';
}

const shares = (counts: Map<string, number>, total: number) =>
  [...counts].map(([key, n]) => [key, n / total] as [string, number]).sort((a, b) => b[1] - a[1]);

/**
 * Reads a `.cpuprofile` and sums its busy samples per part and per function; with `window` (µs on
 * process.hrtime's clock, the profile's), only the samples taken in it (the measure, not the startup).
 */
export function summarizeProfile(file: string, window?: { from: number; to: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const parts = new Map<string, number>();
  const leaves = new Map<string, number>();
  let busy = 0;
  let time = profile.startTime;
  for (const [i, id] of profile.samples.entries()) {
    time += profile.timeDeltas[i] ?? 0;
    if (window && (time < window.from || time > window.to)) continue;
    const leaf = byId.get(id) as ProfileNode;
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy++;
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      stack.unshift(byId.get(at) as ProfileNode);
    const part = partOf(stack);
    parts.set(part, (parts.get(part) ?? 0) + 1);
    const { functionName, url, lineNumber } = leaf.callFrame;
    const where = url ? ` ${url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
    const fn = `${functionName || '(anonymous)'}${where}`;
    leaves.set(fn, (leaves.get(fn) ?? 0) + 1);
  }
  return { samples: busy, parts: shares(parts, busy), leaves: shares(leaves, busy) };
}
