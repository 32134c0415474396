/**
 * The structure measures of issue #29, re-runnable on any checkout: `npx tsx scripts/measure-structure.ts`
 * (`--list` also names what each count counts; `--root DIR` measures the checkout at DIR). Read with the TypeScript compiler API over src/:
 *   - files over 300 lines;
 *   - functions over 60 lines (declarations, methods, arrows and function expressions; from the
 *     line of the function's start to the line of its end);
 *   - functions over 4 parameters;
 *   - import cycles: strongly connected components of the relative import graph (type-only
 *     imports and re-exports counted), and the modules in them.
 * The `duplicates --repo src --most 200` pair count is read by running that tool when it is on PATH.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { cyclesOf } from './lib/cycles.ts';

// `--root DIR` measures another checkout (e.g. `git worktree add` of main); default: this one.
const rootAt = process.argv.indexOf('--root');
const root =
  rootAt >= 0 ? resolve(process.argv[rootAt + 1] ?? '.') : resolve(dirname(new URL(import.meta.url).pathname), '..');
const src = join(root, 'src');
const list = process.argv.includes('--list');

const files = (readdirSync(src, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join(src, f))
  .sort();

const longFiles: string[] = [];
const longFunctions: string[] = [];
const wideFunctions: string[] = [];
const imports = new Map<string, string[]>();

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const name = relative(root, file);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > 300) longFiles.push(`${name} (${lines})`);
  const edges: string[] = [];
  const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = line(node.getStart(source));
      const span = line(node.getEnd()) - start + 1;
      const label = `${name}:${start} ${functionName(node)}`;
      if (span > 60) longFunctions.push(`${label} (${span} lines)`);
      if (node.parameters.length > 4) wideFunctions.push(`${label} (${node.parameters.length} parameters)`);
    }
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
      if (specifier.startsWith('.')) edges.push(resolve(dirname(file), specifier));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  imports.set(file, edges);
}

function functionName(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

function duplicatePairs(): string {
  try {
    const out = execFileSync('duplicates', ['--repo', 'src', '--most', '200', '--seconds', '120'], {
      cwd: root,
      encoding: 'utf8',
    });
    return out.split('\n')[0] ?? '';
  } catch {
    return 'not measured (the duplicates tool is not on PATH)';
  }
}

const found = cyclesOf(imports).map((component) => component.map((file) => relative(root, file)));
const report: [string, number, string[]][] = [
  ['files in src/ over 300 lines', longFiles.length, longFiles],
  ['functions over 60 lines', longFunctions.length, longFunctions],
  ['functions over 4 parameters', wideFunctions.length, wideFunctions],
  [
    `import cycles (type-only imports counted; ${found.reduce((n, c) => n + c.length, 0)} modules in them)`,
    found.length,
    found.map((c) => c.join(' <-> ')),
  ],
];
for (const [label, count, items] of report) {
  console.log(`${label}: ${count}`);
  if (list) for (const item of items) console.log(`  ${item}`);
}
console.log(`duplicates --repo src --most 200: ${duplicatePairs()}`);
