/**
 * The result view's document (result-view.ts): HTML with its style and script inline, nothing
 * loaded from anywhere, so it runs under the extension's restrictive default CSP
 * (`default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline';
 * img-src 'self' data:; connect-src 'none'`). It speaks the extension's postMessage protocol
 * itself (JSON-RPC 2.0 to `window.parent`: `ui/initialize`, `ui/notifications/initialized`,
 * `ui/notifications/tool-input` and `tool-result` in, `tools/call` and
 * `ui/notifications/size-changed` out), the few messages a view needs, so no bundle of the
 * ext-apps App class (540 kB with its dependencies) ships in every generated server.
 *
 * Values from the API are placed with textContent only: an answer's text never becomes markup.
 * The script uses no template literals; its two backslashes are doubled here (`\\n`, `\\25B2`).
 */

const STYLE = `
:root { color-scheme: light dark; }
body { margin: 0; font-family: var(--font-sans, system-ui, sans-serif); font-size: var(--font-text-sm-size, 14px);
  color: var(--color-text-primary, CanvasText); background: var(--color-background-primary, Canvas); }
header { display: flex; gap: 8px; align-items: center; padding: 8px; flex-wrap: wrap; }
header .title { font-weight: 600; margin-right: auto; }
button { font: inherit; padding: 4px 10px; border-radius: var(--border-radius-sm, 6px);
  border: 1px solid var(--color-border-primary, GrayText); background: var(--color-background-secondary, ButtonFace);
  color: inherit; cursor: pointer; }
button[disabled] { opacity: 0.5; cursor: default; }
.scroll { overflow: auto; max-height: 520px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--color-border-secondary, #8884);
  vertical-align: top; max-width: 320px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
th { position: sticky; top: 0; background: var(--color-background-secondary, Canvas); cursor: pointer; user-select: none; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
tbody tr { cursor: pointer; }
tbody tr:hover { background: var(--color-background-tertiary, #8882); }
#record td, #record th { white-space: pre-wrap; word-break: break-word; cursor: default; position: static; }
#status { padding: 8px; color: var(--color-text-secondary, GrayText); }
#status.error { color: var(--color-text-danger, #c00); }
.hidden { display: none; }
`;

const SCRIPT = `
(function () {
  "use strict";
  var PAGE_KEYS = ["io.github.openapi-mcp-bridge/page", "openapi-mcp-bridge/page"];
  var nextId = 1;
  var pending = new Map();
  var state = { rows: [], columns: [], sort: null, page: null, history: [], label: "", busy: false };
  var el = function (id) { return document.getElementById(id); };

  function send(message) { window.parent.postMessage(message, "*"); }
  function request(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending.set(id, { resolve: resolve, reject: reject });
      send({ jsonrpc: "2.0", id: id, method: method, params: params });
    });
  }
  function notify(method, params) { send({ jsonrpc: "2.0", method: method, params: params }); }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent) return;
    var data = event.data;
    if (!data || data.jsonrpc !== "2.0") return;
    if (data.id !== undefined && pending.has(data.id) && !data.method) {
      var waiting = pending.get(data.id);
      pending.delete(data.id);
      if (data.error) waiting.reject(new Error(data.error.message || "error"));
      else waiting.resolve(data.result);
      return;
    }
    if (data.method === "ui/notifications/tool-result") render(data.params || {});
    else if (data.method === "ui/notifications/tool-input") state.input = (data.params || {}).arguments;
    else if (data.method === "ui/notifications/tool-cancelled") showStatus("The call was cancelled.", true);
    else if (data.method === "ui/resource-teardown" && data.id !== undefined) send({ jsonrpc: "2.0", id: data.id, result: {} });
    else if (data.method === "ping" && data.id !== undefined) send({ jsonrpc: "2.0", id: data.id, result: {} });
  });

  function showStatus(text, isError) {
    var status = el("status");
    status.textContent = text;
    status.className = isError ? "error" : "";
  }

  function isRecord(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }

  function pageFacts(result) {
    var meta = result._meta || {};
    for (var i = 0; i < PAGE_KEYS.length; i++) if (isRecord(meta[PAGE_KEYS[i]])) return meta[PAGE_KEYS[i]];
    return null;
  }

  function textOf(result) {
    return (result.content || []).filter(function (c) { return c.type === "text"; })
      .map(function (c) { return c.text; }).join("\\n");
  }

  // The records of an answer: the list itself, or the longest list of objects an object holds.
  function findRecords(value) {
    if (isRecord(value) && Object.keys(value).length === 1 && "result" in value) value = value.result;
    if (Array.isArray(value)) return { rows: value, label: "", rest: null };
    if (!isRecord(value)) return null;
    var best = null;
    Object.keys(value).forEach(function (key) {
      var item = value[key];
      if (Array.isArray(item) && item.some(isRecord) && (!best || item.length > value[best].length)) best = key;
    });
    if (best === null) return null;
    return { rows: value[best], label: best, rest: value };
  }

  function render(result) {
    state.busy = false;
    el("record").classList.add("hidden");
    if (result.isError) { showStatus(textOf(result) || "The call failed.", true); updatePager(); return; }
    state.page = pageFacts(result);
    var data = result.structuredContent;
    var found = data === undefined ? null : findRecords(data);
    if (found) {
      state.rows = found.rows.map(function (row) { return isRecord(row) ? row : { value: row }; });
      state.label = found.label;
      state.sort = null;
      state.columns = columnsOf(state.rows);
      drawTable();
      showStatus(state.rows.length + (state.rows.length === 1 ? " record" : " records") +
        (state.label ? " in " + state.label : "") + (state.history.length ? ", page " + (state.history.length + 1) : ""), false);
    } else if (isRecord(data)) {
      el("table-box").classList.add("hidden");
      showRecord(data, false);
      showStatus("One record.", false);
    } else {
      el("table-box").classList.add("hidden");
      showStatus(textOf(result) || "No structured answer to show.", false);
    }
    updatePager();
  }

  function columnsOf(rows) {
    var seen = [];
    rows.slice(0, 50).forEach(function (row) {
      Object.keys(row).forEach(function (key) { if (seen.indexOf(key) < 0) seen.push(key); });
    });
    return seen.slice(0, 12);
  }

  function cellText(value) {
    if (value === null || value === undefined) return "";
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  function compare(a, b) {
    if (a === b) return 0;
    if (a === undefined || a === null) return 1;
    if (b === undefined || b === null) return -1;
    if (typeof a === "number" && typeof b === "number") return a - b;
    return cellText(a).localeCompare(cellText(b), undefined, { numeric: true });
  }

  function drawTable() {
    el("table-box").classList.remove("hidden");
    var head = el("head");
    var body = el("rows");
    head.textContent = "";
    body.textContent = "";
    var tr = document.createElement("tr");
    state.columns.forEach(function (column) {
      var th = document.createElement("th");
      th.textContent = column;
      th.dataset.column = column;
      if (state.sort && state.sort.column === column) th.setAttribute("aria-sort", state.sort.ascending ? "ascending" : "descending");
      th.addEventListener("click", function () { sortBy(column); });
      tr.appendChild(th);
    });
    head.appendChild(tr);
    var rows = state.rows.slice();
    if (state.sort) {
      var s = state.sort;
      rows.sort(function (a, b) { var c = compare(a[s.column], b[s.column]); return s.ascending ? c : -c; });
    }
    rows.forEach(function (row) {
      var line = document.createElement("tr");
      line.dataset.row = String(state.rows.indexOf(row));
      state.columns.forEach(function (column) {
        var td = document.createElement("td");
        td.textContent = cellText(row[column]);
        td.title = td.textContent;
        line.appendChild(td);
      });
      line.addEventListener("click", function () { showRecord(row, true); });
      body.appendChild(line);
    });
  }

  function sortBy(column) {
    var ascending = !(state.sort && state.sort.column === column && state.sort.ascending);
    state.sort = { column: column, ascending: ascending };
    drawTable();
  }

  function showRecord(record, fromTable) {
    var box = el("record");
    var body = el("record-rows");
    body.textContent = "";
    Object.keys(record).forEach(function (key) {
      var tr = document.createElement("tr");
      var th = document.createElement("th");
      var td = document.createElement("td");
      th.textContent = key;
      var value = record[key];
      td.textContent = typeof value === "object" && value !== null ? JSON.stringify(value, null, 2) : cellText(value);
      tr.appendChild(th);
      tr.appendChild(td);
      body.appendChild(tr);
    });
    box.classList.remove("hidden");
    el("back").classList.toggle("hidden", !fromTable);
    if (fromTable) el("table-box").classList.add("hidden");
  }

  function updatePager() {
    var next = state.page && isRecord(state.page.next) && typeof state.page.tool === "string";
    el("next").disabled = state.busy || !next;
    el("prev").disabled = state.busy || state.history.length === 0;
    el("pager").classList.toggle("hidden", !next && state.history.length === 0);
  }

  function callPage(args, tool) {
    state.busy = true;
    updatePager();
    showStatus("Loading...", false);
    return request("tools/call", { name: tool, arguments: args }).then(render, function (error) {
      state.busy = false;
      showStatus("The call failed: " + error.message, true);
      updatePager();
    });
  }

  el("next").addEventListener("click", function () {
    if (!state.page || !state.page.next) return;
    state.history.push(state.page.arguments || {});
    callPage(state.page.next, state.page.tool);
  });
  el("prev").addEventListener("click", function () {
    if (!state.page || state.history.length === 0) return;
    var args = state.history.pop();
    callPage(args, state.page.tool);
  });
  el("back").addEventListener("click", function () {
    el("record").classList.add("hidden");
    el("table-box").classList.remove("hidden");
  });

  var lastSize = "";
  new ResizeObserver(function () {
    var size = { width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) };
    var key = size.width + "x" + size.height;
    if (key === lastSize) return;
    lastSize = key;
    notify("ui/notifications/size-changed", size);
  }).observe(document.documentElement);

  request("ui/initialize", {
    appInfo: { name: "openapi-mcp-bridge result view", version: "1" },
    appCapabilities: { availableDisplayModes: ["inline"] },
    protocolVersion: "2026-01-26"
  }).then(function (answer) {
    var vars = answer && answer.hostContext && answer.hostContext.styles && answer.hostContext.styles.variables;
    if (isRecord(vars)) Object.keys(vars).forEach(function (name) {
      if (typeof vars[name] === "string") document.documentElement.style.setProperty(name, vars[name]);
    });
    notify("ui/notifications/initialized", {});
  }, function (error) { showStatus("The host did not answer: " + error.message, true); });
})();
`;

export const RESULT_VIEW_HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Records</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<span class="title" id="status">Waiting for the result...</span>
<span id="pager" class="hidden"><button id="prev" type="button" disabled>Previous page</button> <button id="next" type="button" disabled>Next page</button></span>
</header>
<div id="table-box" class="scroll hidden"><table id="records"><thead id="head"></thead><tbody id="rows"></tbody></table></div>
<div id="record" class="hidden"><header><button id="back" type="button">Back to the list</button></header>
<table><tbody id="record-rows"></tbody></table></div>
<script>${SCRIPT}</script>
</body>
</html>
`;
