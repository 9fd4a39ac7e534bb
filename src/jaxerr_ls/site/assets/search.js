// The index page's search: a pasted message or traceback goes through the catalog matcher
// (match.js, the CLI's rules); plain words list the entries whose id, title or APIs hold them.
(function () {
  "use strict";
  var data = window.JAXERR_SEARCH;
  var matcher = new window.JaxerrMatch.Matcher(data);
  var query = document.getElementById("query");
  var results = document.getElementById("results");
  var status = document.getElementById("status");
  var WORD_HITS = 20;

  function link(index, note) {
    var entry = data.entries[index];
    var item = document.createElement("li");
    var a = document.createElement("a");
    a.href = "errors/" + encodeURIComponent(entry[0]) + ".html";
    // Titles mark code with backticks, as the pages do: <code> nodes, never HTML from data.
    entry[2].split("`").forEach(function (part, n) {
      if (!part) return;
      var node = n % 2 ? document.createElement("code") : document.createTextNode(part);
      if (n % 2) node.textContent = part;
      a.appendChild(node);
    });
    item.appendChild(a);
    var cls = document.createElement("span");
    cls.className = "cls";
    cls.textContent = " " + entry[1] + (entry[3] ? " · curated" : "") + (note ? " · " + note : "");
    item.appendChild(cls);
    return item;
  }

  function byWords(text) {
    var words = text.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 12);
    var out = [];
    if (!words.length) return out;
    for (var i = 0; i < data.entries.length && out.length < 200; i++) {
      var e = data.entries[i];
      var hay = (e[0] + " " + e[1] + " " + e[2] + " " + e[4]).toLowerCase();
      if (words.every(function (w) { return hay.indexOf(w) >= 0; })) out.push(i);
    }
    // Curated entries first, keeping the catalog's order otherwise.
    out.sort(function (a, b) { return data.entries[b][3] - data.entries[a][3] || a - b; });
    return out.slice(0, WORD_HITS);
  }

  // API pages whose name ends with the query ("arange" -> jax.numpy.arange), shortest first.
  function apiLinks(text) {
    var word = text.trim();
    if (!word || /\s/.test(word) || !data.apis) return [];
    var lower = word.toLowerCase();
    var found = data.apis.filter(function (name) {
      var n = name.toLowerCase();
      return n === lower || n.endsWith("." + lower) || (lower.indexOf(".") > 0 && n.indexOf(lower) >= 0);
    });
    found.sort(function (a, b) { return a.length - b.length || (a < b ? -1 : 1); });
    return found.slice(0, 8).map(function (name) {
      var item = document.createElement("li");
      var a = document.createElement("a");
      a.href = "apis/" + encodeURIComponent(name) + ".html";
      var code = document.createElement("code");
      code.textContent = name;
      a.appendChild(code);
      item.appendChild(a);
      var note = document.createElement("span");
      note.className = "cls";
      note.textContent = " · API: the errors it raises";
      item.appendChild(note);
      return item;
    });
  }

  function run() {
    var text = query.value;
    results.textContent = "";
    if (!text.trim()) { status.textContent = ""; return; }
    var explained = matcher.explain(text);
    var found = explained.found, match = explained.match;
    var shown = {};
    if (match) {
      var fields = Object.keys(match.fields).map(function (k) { return k + " = " + match.fields[k]; });
      var how = match.by === "class" ? " · identified by its class alone" : "";
      results.appendChild(link(match.entry, "match " + match.score + how + (fields.length ? " · " + fields.join(", ") : "")));
      shown[match.entry] = true;
    }
    var apis = match ? [] : apiLinks(text);
    apis.forEach(function (item) { results.appendChild(item); });
    var words = text.length <= 200 ? byWords(text).filter(function (i) { return !shown[i]; }) : [];
    words.forEach(function (i) { results.appendChild(link(i, "")); });
    var head = found.exception ? found.exception + ": " : "";
    var line = (head + found.message.split("\n")[0]).slice(0, 160);
    status.textContent = match
      ? "Matched " + line
      : (words.length || apis.length ? "No message matched; APIs and entries with these words:" : "No entry matches " + line);
  }

  var timer = null;
  query.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 120); });
  // From the header's box on any page: index.html#q=<text> (the whole paste, lines kept);
  // index.html?q=<text> also works (a link, or the header's form without JavaScript).
  function fromLocation() {
    var hash = window.location.hash, q = null;
    if (hash.indexOf("#q=") === 0) {
      try { q = decodeURIComponent(hash.slice(3)); } catch (e) { q = hash.slice(3); }  // a bare "%"
    } else {
      q = new URLSearchParams(window.location.search).get("q");
    }
    if (q) { query.value = q.replace(/\r\n?/g, "\n"); }
  }
  // Searching from the index page's own header changes only the fragment: no reload.
  window.addEventListener("hashchange", function () { fromLocation(); run(); });
  fromLocation();
  if (query.value) run();
})();
