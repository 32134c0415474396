// The page's own script (./index.ts writes it at ASSETS.js, assets/docs.js): it mounts the renderer with the
// chosen version's document, keeps the version in the URL, maps Redoc-style links, and fills in
// the try-it base URL and token.

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
