/**
 * Node's built-in modules, reached at call time through `process.getBuiltinModule` (Node >= 20.16)
 * instead of a static `import`: the contract model stays importable in a browser bundle (the client,
 * the MSW handlers), and only the functions that read files need Node, when they are called. The
 * few members used are typed here, so the model type-checks with the DOM libs alone.
 */
export interface NodeBuiltins {
  fs: {
    existsSync(path: string): boolean;
    readFileSync(path: string, encoding: 'utf8'): string;
    statSync(path: string): { mtimeMs: number; size: number };
  };
  path: {
    join(...parts: string[]): string;
    dirname(path: string): string;
  };
  url: { fileURLToPath(url: string | URL): string };
}

type GetBuiltin = (id: string) => unknown;

export function nodeBuiltins(): NodeBuiltins {
  const host = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process;
  const get = host?.getBuiltinModule;
  if (typeof get !== 'function') throw new Error('reading the contract from disk needs Node.js 20.16 or newer');
  return {
    fs: get('node:fs') as NodeBuiltins['fs'],
    path: get('node:path') as NodeBuiltins['path'],
    url: get('node:url') as NodeBuiltins['url'],
  };
}
