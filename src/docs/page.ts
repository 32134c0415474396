// The page around the renderer: index.html, a stylesheet and a small script that mounts
// Stoplight Elements' <elements-api> with the chosen version's document, keeps the version in the
// URL (`?version=`), maps Redoc-style `#operation/<id>` links to Elements' `#/operations/<id>`,
// and points try-it at the base URL the reader picks (pre-filled with a bearer token). The script
// itself is ./page-script.ts.

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Files of the page, by path; the renderer's own files are added by the caller. */
export const ASSETS = {
  elementsJs: 'assets/web-components.min.js',
  elementsLicense: 'assets/web-components.min.js.LICENSE.txt',
  elementsCss: 'assets/styles.min.css',
  css: 'assets/docs.css',
  js: 'assets/docs.js',
  data: 'assets/api.js',
  config: 'assets/config.js',
} as const;

export function indexHtml(title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="${ASSETS.elementsCss}">
  <link rel="stylesheet" href="${ASSETS.css}">
</head>
<body>
  <header class="docs-bar">
    <strong class="docs-title">${escapeHtml(title)}</strong>
    <label>API version <select id="docs-version" aria-label="API version"></select></label>
    <span id="docs-header" class="docs-header"></span>
    <label class="docs-base">Try-it base URL <input id="docs-base-url" type="url" spellcheck="false" aria-label="Try-it base URL"></label>
    <span class="docs-token">Your try-it token <code id="docs-token"></code>
      <button id="docs-reset" type="button">Reset my state</button> <span id="docs-reset-status" role="status"></span></span>
  </header>
  <p id="docs-notice" class="docs-notice" role="status" hidden></p>
  <main class="docs-main"><elements-api id="docs-api" router="hash" layout="sidebar" hideExport="true" tryItCredentialsPolicy="same-origin"></elements-api></main>
  <noscript>The reference needs JavaScript. The OpenAPI documents are in assets/api.js.</noscript>
  <script src="${ASSETS.data}"></script>
  <script src="${ASSETS.config}"></script>
  <script src="${ASSETS.js}"></script>
  <script src="${ASSETS.elementsJs}"></script>
</body>
</html>
`;
}

export const PAGE_CSS = `html, body { margin: 0; height: 100%; }
body { display: flex; flex-direction: column; font: 14px/1.4 system-ui, sans-serif; }
.docs-bar { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .5rem 1rem;
  border-bottom: 1px solid #d0d7de; background: #f6f8fa; color: #1f2328; }
.docs-bar label { display: flex; gap: .4rem; align-items: center; }
.docs-bar select, .docs-bar input { font: inherit; padding: .2rem .4rem; }
/* The version switcher looks like what it is, a dropdown: a border, a chevron, a pointer. */
.docs-bar select { appearance: none; -webkit-appearance: none; cursor: pointer; color: #1f2328;
  padding: .25rem 1.9rem .25rem .6rem; border: 1px solid #8c959f; border-radius: 6px;
  background: #fff url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='12' height='8' viewBox='0 0 12 8'%3E%3Cpath d='M1 1l5 5 5-5' fill='none' stroke='%2357606a' stroke-width='2'/%3E%3C/svg%3E") no-repeat right .6rem center; }
.docs-bar select:hover { border-color: #57606a; }
.docs-bar select:focus-visible { outline: 2px solid #0969da; outline-offset: 1px; }
/* A licence link without its target (UNLICENSED) reads as plain text. */
.docs-main a:not([href]) { color: inherit; text-decoration: none; cursor: text; }
/* Try-it's send button keeps its whole label ("Send API Request"); the server picker beside it shrinks. */
.SendButtonHolder .sl-button { flex-shrink: 0; white-space: nowrap; }
.SendButtonHolder .sl-relative { min-width: 0; }
.docs-base { margin-left: auto; }
.docs-base input { width: 17rem; }
.docs-header code, .docs-token code { font-family: ui-monospace, monospace; }
.docs-token button { font: inherit; padding: .2rem .6rem; border: 1px solid #8c959f; border-radius: 6px; background: #fff; cursor: pointer; }
.docs-notice { margin: 0; padding: .5rem 1rem; background: #fff8c5; border-bottom: 1px solid #d4a72c; color: #1f2328; }
/* Try-it's column: Elements gives it 2/5 of a content column inset by 96 px a side, 313 px at a
   1280 px window, which cuts its parameter grid. Below 1500 px the inset shrinks to 2rem and the
   column takes 48% (at least 25rem): 437 px at 1280. */
@media (max-width: 1500px) { .docs-main .sl-elements-api > .sl-overflow-y-auto { padding-left: 2rem; padding-right: 2rem; } }
.HttpOperation > .sl-flex > .sl-w-2\\/5 { width: 48%; min-width: 25rem; margin-left: 2rem; }
.docs-main { flex: 1; min-height: 0; }
.docs-main elements-api { display: block; height: 100%; }
`;

/** The `assets/config.js` of a site: where try-it sends requests unless the reader changes it. */
export function configScript(defaultBaseUrl: string | undefined): string {
  // undefined: the page's own origin (the docs are served by the mock).
  return `window.STORE_ADMIN_DOCS_CONFIG = ${JSON.stringify({ defaultBaseUrl: defaultBaseUrl ?? null })};\n`;
}

/** The `assets/api.js` of a site: the documents and facts the page shows. */
export function dataScript(data: unknown): string {
  // `<` escaped so that no `</script>` can end the script early when inlined.
  return `window.STORE_ADMIN_DOCS = ${JSON.stringify(data).replace(/</g, '\\u003c')};\n`;
}
