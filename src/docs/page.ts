// The page around the renderer: index.html, a stylesheet and a small script that mounts
// Stoplight Elements' <elements-api> with the chosen version's document, keeps the version in the
// URL (`?version=`), maps Redoc-style `#operation/<id>` links to Elements' `#/operations/<id>`,
// and points try-it at the base URL the reader picks (pre-filled with a bearer token).

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

/** Runs in the browser before the renderer's script (plain ES2017, no modules, works from file://). */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var data = window.STORE_ADMIN_DOCS;
  var config = window.STORE_ADMIN_DOCS_CONFIG || {};
  var api = document.getElementById('docs-api');
  var select = document.getElementById('docs-version');
  var baseInput = document.getElementById('docs-base-url');
  var headerInfo = document.getElementById('docs-header');
  var notice = document.getElementById('docs-notice');
  var BASE_KEY = 'store-admin-docs.baseUrl';
  var TOKEN_KEY = 'store-admin-docs.token';
  // The token every reader shared before each got their own: replaced where Elements kept it.
  var SHARED_TOKEN = 'docs-try-it';

  function byVersion(version) {
    for (var i = 0; i < data.versions.length; i++) if (data.versions[i].version === version) return data.versions[i];
    return undefined;
  }
  function operationOf(hash) {
    var m = /^#\\/?operations?\\/([^/?#]+)/.exec(hash || '');
    return m ? decodeURIComponent(m[1]) : undefined;
  }
  function storage(action, key, value) {
    try {
      if (action === 'get') return window.localStorage.getItem(key);
      window.localStorage.setItem(key, value);
    } catch (e) { /* storage may be disabled (file:// in some browsers) */ }
    return null;
  }

  // Redoc-style deep links (#operation/<id>) become Elements routes (#/operations/<id>).
  var wanted = operationOf(location.hash);
  if (wanted && !/^#\\/operations\\//.test(location.hash)) {
    history.replaceState(null, '', location.pathname + location.search + '#/operations/' + encodeURIComponent(wanted));
  }

  var params = new URLSearchParams(location.search);
  var current = byVersion(params.get('version')) ? params.get('version') : undefined;
  // A deep link to an operation wins over a version that does not have it.
  var versionsOfWanted = (wanted && data.operations[wanted]) || [];
  var askedFor; // the version the link named, when it lacks the operation (said in the notice)
  if (versionsOfWanted.length > 0 && versionsOfWanted.indexOf(current) < 0) {
    askedFor = current;
    current = versionsOfWanted[0];
  }
  if (!current) current = data.versions[0].version;

  // Each reader's own token (the mock keeps a state per token), made here and kept in this
  // browser's localStorage, so one reader's writes never move the records another reader's try-it
  // pre-fills. Without storage (file:// in some browsers) it lasts as long as the page.
  function newToken() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    var hex = '';
    for (var i = 0; i < bytes.length; i++) hex += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
    return 'docs-' + hex;
  }
  var TOKEN = storage('get', TOKEN_KEY);
  if (!TOKEN) {
    TOKEN = newToken();
    storage('set', TOKEN_KEY, TOKEN);
  }
  document.getElementById('docs-token').textContent = TOKEN;

  // Try-it credentials: Elements keeps them per security scheme in localStorage; pre-fill the token.
  var schemes = {};
  data.versions.forEach(function (v) {
    var all = (v.document.components && v.document.components.securitySchemes) || {};
    Object.keys(all).forEach(function (key) { schemes[key] = all[key]; });
  });
  var saved = {};
  try { saved = JSON.parse(storage('get', 'TryIt_securitySchemeValues') || '{}') || {}; } catch (e) { saved = {}; }
  var changed = false;
  Object.keys(schemes).forEach(function (key) {
    var s = schemes[key];
    if (saved[key] && String(saved[key]).replace(/^Bearer /, '') !== SHARED_TOKEN) return;
    if (s.type === 'oauth2' || s.type === 'openIdConnect') saved[key] = 'Bearer ' + TOKEN;
    else if (s.type === 'http' && String(s.scheme).toLowerCase() === 'bearer') saved[key] = TOKEN;
    else return;
    changed = true;
  });
  if (changed) storage('set', 'TryIt_securitySchemeValues', JSON.stringify(saved));

  function defaultBase() {
    if (config.defaultBaseUrl) return config.defaultBaseUrl;
    return /^https?:$/.test(location.protocol) ? location.origin : 'http://127.0.0.1:4010';
  }
  var base = storage('get', BASE_KEY) || defaultBase();
  baseInput.value = base;

  // "Reset my state": the mock's admin reset of this reader's token (POST /__mock/reset), at the
  // try-it base URL. A server that is not the mock, or a page from another origin than loopback
  // (file://), cannot reset it: the status says so.
  var resetStatus = document.getElementById('docs-reset-status');
  document.getElementById('docs-reset').addEventListener('click', function () {
    resetStatus.textContent = 'Resetting…';
    var failed = function (why) { resetStatus.textContent = 'Not reset: ' + why; };
    fetch(base.replace(/\\/+$/, '') + '/__mock/reset', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + TOKEN },
      body: '{}'
    }).then(function (response) {
      if (response.ok) {
        resetStatus.textContent = 'Reset: your token reads the seeded data again.';
        return undefined;
      }
      return response.json().then(
        function (problem) { failed(problem.detail || problem.title || String(response.status)); },
        function () { failed(base + ' answered ' + response.status + ' (is it the mock?)'); }
      );
    }, function () {
      failed(base + ' cannot be reached from this page (the reset needs the mock, on this origin or on localhost).');
    });
  });

  // A link to an operation the version lacks: say so, and link the versions that have it.
  function missing(op, version, shown) {
    var has = data.operations[op] || [];
    notice.textContent = op + ' is not in version ' + version + '; showing ' +
      (shown ? 'version ' + shown : 'the Overview') + '. ' + (has.length ? 'Versions that have it: ' : 'No version has it.');
    has.forEach(function (v, i) {
      if (i > 0) notice.appendChild(document.createTextNode(', '));
      var link = document.createElement('a');
      link.href = '?version=' + encodeURIComponent(v) + '#/operations/' + encodeURIComponent(op);
      link.textContent = v;
      notice.appendChild(link);
    });
    notice.hidden = false;
  }

  function documentFor(version) {
    var doc = JSON.parse(JSON.stringify(byVersion(version).document));
    // One server, the try-it base URL of the bar: the bundle's own (\`{base_url}\`, its default the
    // local mock) would show a second, different base URL beside it.
    doc.servers = [{ url: base.replace(/\\/+$/, ''), description: 'Try-it base URL (set in the bar above)' }];
    return doc;
  }

  // Two fixes to what Elements renders. It escapes the quotes of a parameter's example in the
  // try-it placeholder (\`example: [\\"12\\"]\`): show the value as written. It links every licence
  // identifier to spdx.org, but "UNLICENSED" is npm's "no licence granted", not an SPDX licence:
  // keep it as text (the link loses its href; React still owns the node).
  new MutationObserver(function () {
    var links = api.querySelectorAll('a[href*="spdx.org/licenses/UNLICENSED"]');
    for (var l = 0; l < links.length; l++) links[l].removeAttribute('href');
    var inputs = api.querySelectorAll('input[placeholder]');
    for (var i = 0; i < inputs.length; i++) {
      var text = inputs[i].getAttribute('placeholder');
      if (text.indexOf('\\\\"') >= 0) inputs[i].setAttribute('placeholder', text.replace(/\\\\"/g, '"'));
    }
  }).observe(api, { childList: true, subtree: true });

  function show(version) {
    current = version;
    select.value = version;
    headerInfo.innerHTML = '';
    var code = document.createElement('code');
    code.textContent = data.header + ': ' + version;
    headerInfo.appendChild(code);
    var url = new URL(location.href);
    url.searchParams.set('version', version);
    var op = operationOf(location.hash);
    var hash = location.hash;
    notice.hidden = true;
    if (op && (data.operations[op] || []).indexOf(version) < 0) {
      hash = '#/';
      missing(op, version);
    }
    history.replaceState(null, '', url.pathname + url.search + hash);
    document.title = byVersion(version).title;
    api.apiDescriptionDocument = documentFor(version);
    document.documentElement.setAttribute('data-docs-version', version);
  }

  data.versions.forEach(function (v) {
    var option = document.createElement('option');
    option.value = v.version;
    option.textContent = v.version;
    select.appendChild(option);
  });
  select.addEventListener('change', function () { show(select.value); });
  baseInput.addEventListener('change', function () {
    base = baseInput.value.trim() || defaultBase();
    baseInput.value = base;
    storage('set', BASE_KEY, base);
    show(current);
  });
  window.addEventListener('hashchange', function () {
    var op = operationOf(location.hash);
    if (op && !/^#\\/operations\\//.test(location.hash)) {
      location.replace('#/operations/' + encodeURIComponent(op));
      return;
    }
    if (op && data.operations[op] && data.operations[op].indexOf(current) < 0) {
      var from = current;
      show(data.operations[op][0]);
      missing(op, from, current);
    } else notice.hidden = true;
  });
  // Mount once the renderer has defined <elements-api> (its script comes after this one, so that
  // the deep link above is rewritten before its router reads the URL).
  window.customElements.whenDefined('elements-api').then(function () {
    show(current);
    if (askedFor) missing(wanted, askedFor, current);
  });
})();
`;
