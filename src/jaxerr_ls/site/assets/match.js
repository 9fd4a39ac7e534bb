// The catalog matcher in the browser: the same rules as jaxerr_ls/catalog/match.py, over the
// regular expressions the Python side compiled (search-data.js), plus the part of the traceback
// parser that finds the last exception of a pasted text. No DOM here: Node runs it in the tests.
(function (root) {
  "use strict";

  var SPACE = /\s+/g;
  function norm(text) { return text.replace(SPACE, " ").trim(); }
  function shortClass(name) { var parts = name.split("."); return parts[parts.length - 1].trim(); }
  function codePoints(text) { return Array.from(text); }

  function Matcher(data) {
    this.data = data;
    this.entries = data.entries;
    this.hasPatterns = {};
    for (var h = 0; h < data.hasPatterns.length; h++) this.hasPatterns[data.hasPatterns[h]] = true;
    this.patterns = data.patterns.map(function (p) { return [p[0], new RegExp(p[1], "sm"), p[2] || []]; });
    this.byWord = {};
    this.floating = [];
    this.regexes = {};
    this.sticky = {};
    this.runtime = {};
    for (var r = 0; r < (data.runtimeClasses || []).length; r++) this.runtime[data.runtimeClasses[r]] = true;
    this.status = data.statusPrefix ? new RegExp(data.statusPrefix, "y") : null;
    for (var i = 0; i < data.templates.length; i++) {
      var t = data.templates[i];
      if (t[2] && t[3]) {
        var word = t[2].split(" ")[0];
        (this.byWord[word] = this.byWord[word] || []).push(t);
      } else {
        this.floating.push(t);
      }
    }
  }

  Matcher.prototype.regex = function (source) {
    var found = this.regexes[source];
    if (!found) found = this.regexes[source] = new RegExp("^(?:" + source + ")", "s");
    return found;
  };

  Matcher.prototype.candidates = function (normalised) {
    var first = normalised ? normalised.split(" ")[0] : "";
    var out = [];
    var group = Object.prototype.hasOwnProperty.call(this.byWord, first) ? this.byWord[first] : [];
    for (var i = 0; i < group.length; i++) {
      if (normalised.startsWith(group[i][2])) out.push(group[i]);
    }
    for (var j = 0; j < this.floating.length; j++) {
      var t = this.floating[j];
      if (normalised.indexOf(t[4]) >= 0 && normalised.startsWith(t[2])) out.push(t);
    }
    return out;
  };

  // XlaRuntimeError, JaxRuntimeError and RuntimeError carry the same XLA status: one class.
  Matcher.prototype.fits = function (printedBy, cls, carried) {
    return this.sameClass(printedBy, cls) || this.sameClass(printedBy, carried);
  };

  Matcher.prototype.sameClass = function (printed, expected) {
    return printed === expected || (!!this.runtime[printed] && !!this.runtime[expected]);
  };

  // Where a wrapped status may start: the start, after a newline, ": " or "; " (catalog/xla.py);
  // and where each C++ log line's text starts, past its `file.cc:123] ` (catalog/loglines.py).
  Matcher.prototype.segmentStarts = function (text) {
    var starts = [0];
    for (var i = 0; i < text.length; i++) {
      if (text[i] === "\n") { starts.push(i + 1); continue; }
      if ((text[i] === ":" || text[i] === ";") && text[i + 1] === " ") { starts.push(i + 2); i++; }
    }
    // After the op an MLIR diagnostic names: `'tpu.matmul' op <message>` (catalog/mlir.py).
    var op = /'[\w.$]+' op /g, found;
    while ((found = op.exec(text)) !== null) starts.push(found.index + found[0].length);
    starts.sort(function (a, b) { return a - b; });
    starts = starts.filter(function (s, k) { return k === 0 || s !== starts[k - 1]; });
    var out = starts.slice(0, this.data.maxSegments || 40);
    this.headers(text).forEach(function (h) { if (out.indexOf(h.end) < 0) out.push(h.end); });
    return out.sort(function (a, b) { return a - b; });
  };

  // The log headers of the text: where each one's message starts, and the file it names.
  Matcher.prototype.headers = function (text) {
    if (!this.data.logHeader) return [];
    var regex = new RegExp(this.data.logHeader, "gm");
    var found = [];
    var hit;
    while ((hit = regex.exec(text)) !== null && found.length < (this.data.maxHeaders || 40)) {
      if (hit[0].length === 0) { regex.lastIndex++; continue; }
      // A Python logger names its module (`jax._src.xla_bridge` -> `xla_bridge.py`), as
      // loglines.py `logging_file` reads it; `absl` and `root` name no file.
      var logger = hit.groups.logger || "";
      var file = hit.groups.file ||
        (logger.indexOf(".") >= 0 ? logger.slice(logger.lastIndexOf(".") + 1) + ".py" : undefined);
      found.push({ end: hit.index + hit[0].length, file: file });
    }
    return found;
  };

  // Hits at one start as a log line tells them apart (match.py `_by_log_header`): after a log
  // header, C++ log messages over statuses of the same text, those the header's file logs
  // first, curated entries kept; elsewhere, a status over a log message.
  Matcher.prototype.byLogHeader = function (text, start, hits) {
    var logs = hits.filter(function (h) { return h.row[7]; });
    if (!logs.length) return hits;
    var header = this.headers(text).filter(function (h) { return h.end === start; })[0];
    if (!header) {
      var others = hits.filter(function (h) { return !h.row[7]; });
      return others.length ? others : hits;
    }
    var curated = hits.filter(function (h) { return h.row[8]; });
    var same = logs.filter(function (h) { return h.row[7].indexOf(header.file) >= 0; });
    return curated.concat(same.length ? same : logs);
  };

  // runtime_class in catalog/xla.py: `ValueError: INVALID_ARGUMENT: ...` of older jaxlib.
  Matcher.prototype.runtimeClass = function (cls, text) {
    // A class carrying a Mosaic/Triton diagnostic (`MosaicError`) is the runtime error re-raised.
    if ((this.data.mlirCarriers || []).indexOf(cls) >= 0) return "XlaRuntimeError";
    if (this.data.mosaicWrapper && new RegExp(this.data.mosaicWrapper, "y").test(text.replace(/^\s+/, ""))) {
      return "XlaRuntimeError";
    }
    if (!this.status || (this.data.valueCarriers || []).indexOf(cls) < 0) return cls;
    this.status.lastIndex = 0;
    return this.status.test(text.replace(/^\s+/, "")) ? "XlaRuntimeError" : cls;
  };

  Matcher.prototype.looksLikeStatus = function (text) {
    if (!this.status) return false;
    var starts = this.segmentStarts(text);
    for (var i = 0; i < starts.length; i++) {
      this.status.lastIndex = starts[i];
      if (this.status.test(text)) return true;
    }
    return false;
  };

  // Templates of errors below JAX's Python at each segment; only the innermost hit is kept.
  Matcher.prototype.below = function (text, normalised) {
    var hits = [];
    var starts = null;
    var lineStarts = null;
    var rows = this.data.below || [];
    for (var b = 0; b < rows.length; b++) {
      var t = rows[b];
      if (normalised.indexOf(t[2]) < 0) continue;
      var regex = this.sticky[t[1]];
      if (!regex) regex = this.sticky[t[1]] = new RegExp(t[1], "sy");
      if (starts === null) starts = this.segmentStarts(text);
      var tried = starts;
      if (t[7]) {
        // A log message starts a line or a log line's text, never inside a status.
        if (lineStarts === null) {
          lineStarts = { 0: 1 };
          this.headers(text).forEach(function (h) { lineStarts[h.end] = 1; });
          for (var c = 0; c < text.length; c++) if (text[c] === "\n") lineStarts[c + 1] = 1;
        }
        tried = starts.filter(function (st) { return lineStarts[st]; });
      }
      for (var s = tried.length - 1; s >= 0; s--) {
        regex.lastIndex = tried[s];
        var hit = regex.exec(text);
        if (!hit) continue;
        var values = {};
        for (var n = 0; n < t[4].length && n + 1 < hit.length; n++) values[t[4][n]] = (hit[n + 1] || "").trim();
        hits.push({ start: tried[s], row: t, fields: values });
        break;
      }
    }
    var innermost = 0;
    hits.forEach(function (h) { if (h.start > innermost) innermost = h.start; });
    return this.byLogHeader(text, innermost, hits.filter(function (h) { return h.start === innermost; }));
  };

  function greater(a, b) {
    for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) return a[i] > b[i]; }
    return false;
  }

  // catalog/match.py's args_message: an exception raised with several arguments prints their
  // tuple, `(value, "message")`; the message string inside is what is matched.
  // A paste may stop inside the message.
  var ARGS_REPR = /^\(([^'"]*?), (['"])((?:\\[\s\S]|(?!\2)[\s\S])*)(?:\2\)$|$)/;
  var ESCAPES = { n: "\n", t: "\t", r: "\r", "0": "\0" };
  function argsMessage(text) {
    var found = ARGS_REPR.exec(text.trim());
    if (!found) return null;
    var inner = unescapePython(found[3]);
    return inner.trim() ? inner : null;
  }
  // templates.py's key_message: a KeyError prints the repr of its key, quotes and all.
  var QUOTED = /^(['"])((?:\\[\s\S]|(?!\1)[\s\S])*)\1$/;
  function keyMessage(exception, text) {
    if (shortClass(exception) !== "KeyError") return null;
    var found = QUOTED.exec(text.trim());
    if (!found) return null;
    var inner = unescapePython(found[2]);
    return inner.trim() ? inner : null;
  }
  // A Python string literal's escapes undone (`\\n` -> a line break, `\\'` -> `'`).
  function unescapePython(text) {
    return text.replace(/\\([\s\S])/g, function (all, c) {
      return Object.prototype.hasOwnProperty.call(ESCAPES, c) ? ESCAPES[c] : c;
    });
  }

  // {entry: index, fields: {...}, score: 0-100} or null: Matcher.match in match.py.
  // loglines.py's past_python_log_header: the text after the Python log header it starts with
  // (`ERROR:root:`, vLLM's `ERROR 04-30 01:11:39 [core.py:1136] `, absl's `W0312 ... x.py:758] `).
  Matcher.prototype.pastPythonHeader = function (text) {
    if (!this.data.logHeader) return null;
    var found = new RegExp(this.data.logHeader, "m").exec(text);
    if (found === null || found.index !== 0) return null;
    var file = found.groups.file || "";
    if (!found.groups.level && file.slice(-3) !== ".py") return null;
    return text.slice(found[0].length).trim() || null;
  };

  Matcher.prototype.match = function (exception, message) {
    var text = codePoints(message).slice(0, this.data.maxMessage).join("");
    // loose.py: a message without its class is read past a Python log header first.
    var body = shortClass(exception) ? null : this.pastPythonHeader(text.trim());
    if (body !== null) {
      var past = this.match(exception, body);
      if (past !== null) return past;
    }
    var inner = argsMessage(text) || keyMessage(exception, text);
    if (inner !== null) {
      var again = this.match(exception, inner);
      if (again !== null) return again;
    }
    var normalised = norm(text);
    var cls = shortClass(exception);
    var carried = this.runtimeClass(cls, text);
    var best = null;
    var entries = this.entries;
    for (var p = 0; p < this.patterns.length; p++) {
      var pattern = this.patterns[p][1];
      pattern.lastIndex = 0;
      var found = pattern.exec(text);
      if (!found) continue;
      var specificity = codePoints(found[0]).length;
      for (var g = 1; g < found.length; g++) specificity -= codePoints(found[g] || "").length;
      var fields = {};
      if (found.groups) {
        Object.keys(found.groups).forEach(function (k) {
          if (found.groups[k] !== undefined) fields[k] = found.groups[k];
        });
      }
      var entry = this.patterns[p][0];
      var fits = this.fits(shortClass(entries[entry][1]), cls, carried);
      var others = this.patterns[p][2] || [];
      for (var o = 0; o < others.length && !fits; o++) fits = this.fits(others[o], cls, carried);
      var key = [fits ? 1 : 0, 1, 15, specificity, entries[entry][3], 0];
      if (best === null || greater(key, best.key)) best = { key: key, entry: entry, fields: fields };
    }
    var candidates = this.candidates(normalised);
    for (var c = 0; c < candidates.length; c++) {
      var t = candidates[c];
      var hit = this.regex(t[1]).exec(text);
      if (!hit) continue;
      // catalog/match.py: a leading value is read on the first line, without a colon.
      if (!t[2] && /[\n:]/.test(hit[1] || "")) continue;
      var values = {};
      for (var n = 0; n < t[6].length && n + 1 < hit.length; n++) values[t[6][n]] = (hit[n + 1] || "").trim();
      var e = t[0];
      var tkey = [this.fits(t[8], cls, carried) ? 1 : 0, 0, t[7], t[5], entries[e][3], this.hasPatterns[e] ? 0 : 1];
      if (best === null || greater(tkey, best.key)) best = { key: tkey, entry: e, fields: values };
    }
    var runtime = !!this.runtime[carried] || !cls || this.looksLikeStatus(text);
    var below = runtime || best === null ? this.below(text, normalised) : [];
    var inner = null;
    for (var k = 0; k < below.length; k++) {
      var row = below[k].row;
      if (!runtime && row[6] !== cls) continue;  // jaxlib's Python errors: same class only
      // A Mosaic/Triton diagnostic (row[9]) ranks above the wrapper's pattern (catalog/match.py).
      var bkey = [this.fits(row[6], cls, carried) ? 1 : 0, row[9] ? 2 : 0, row[5], row[3], entries[row[0]][3], this.hasPatterns[row[0]] ? 0 : 1];
      if (runtime) {
        if (best === null || greater(bkey, best.key)) best = { key: bkey, entry: row[0], fields: below[k].fields };
        if (bkey[0] === 1 && (inner === null || greater(bkey, inner.key))) inner = { key: bkey, entry: row[0], fields: below[k].fields };
      } else if (best === null || greater(bkey, best.key)) {
        best = { key: bkey, entry: row[0], fields: below[k].fields, fallback: true };
      }
    }
    // catalog/match.py: a generated wrapper (`...: {err}`) gives way to the status it carries.
    if (best !== null && inner !== null && entries[best.entry][5]) {
      return { entry: inner.entry, fields: inner.fields, score: 100 };
    }
    if (best !== null) {
      if (best.fallback) return { entry: best.entry, fields: best.fields, score: 100 };
      var sure = best.key[0] === 1 || !cls;
      return { entry: best.entry, fields: best.fields, score: sure ? 100 : 85 };
    }
    // catalog/match.py: a cut message names its error unless the text is nearly another
    // template's whole literal text.
    var cut = this.cut(cls, normalised);
    var close = this.fuzzy(cls, norm(text.split("\n")[0]));
    if (cut !== null && (close === null || close.score <= this.data.cutScore)) return cut;
    return close;
  };

  // catalog/partial.py's follow: how far a message cut short reads a template's literal pieces.
  var CUT_MARKS = /(?:\s*(?:\.\.\.|…|\[\.\.\.\]|\[…\]))+\s*$/;
  function follow(pieces, names, text, glued) {
    text = text.replace(CUT_MARKS, "");
    if (!text || !pieces.length) return null;
    var first = pieces[0];
    if (!first.startsWith(text.slice(0, first.length))) return null;
    if (text.length <= first.length) return { read: text.length, fields: {} };
    // Placeholders side by side are one value, one name, as the template's regex reads them
    // (partial.py): the empty piece between them goes.
    var keptPieces = [], keptGlued = [];
    for (var m = 0; m < pieces.length; m++) {
      if (!pieces[m] && m > 0 && m < pieces.length - 1) continue;
      keptPieces.push(pieces[m]);
      keptGlued.push(glued && m < glued.length ? glued[m] : false);
    }
    pieces = keptPieces; glued = keptGlued;
    if (pieces.length !== names.length + 1) return null;
    var read = first.length, position = first.length, fields = {};
    for (var i = 1; i < pieces.length; i++) {
      var piece = pieces[i], name = names[i - 1];
      if (!piece) { fields[name] = text.slice(position).trim(); return { read: read, fields: fields }; }
      var found = text.indexOf(piece, position);
      if (found < 0) {
        var value = text.slice(position), tail = 0;
        for (var size = Math.min(piece.length, value.length); size > 0; size--) {
          if (value.endsWith(piece.slice(0, size))) { value = value.slice(0, -size); tail = size; break; }
        }
        if (!tail && glued && glued[i]) return null; // a value glued to the next word
        fields[name] = value.trim();
        return { read: read + tail, fields: fields };
      }
      fields[name] = text.slice(position, found).trim();
      read += piece.length;
      position = found + piece.length;
      if (position >= text.length) return { read: read, fields: fields };
    }
    return null;
  }

  Matcher.prototype.cut = function (cls, normalised) {
    var first = normalised ? normalised.split(" ")[0] : "";
    var group = Object.prototype.hasOwnProperty.call(this.byWord, first) ? this.byWord[first] : [];
    var best = null;
    for (var i = 0; i < group.length; i++) {
      var t = group[i];
      if (cls && !this.sameClass(t[8], cls)) continue;
      var found = follow(t[9], t[6], normalised, t[10]);
      if (found === null || found.read < this.data.minRead) continue;
      var key = [found.read, t[7], t[5], this.entries[t[0]][3], this.hasPatterns[t[0]] ? 0 : 1];
      if (best === null || greater(key, best.key)) best = { key: key, entry: t[0], fields: found.fields };
    }
    return best === null ? null : { entry: best.entry, fields: best.fields, score: this.data.cutScore };
  };

  // rapidfuzz's fuzz.ratio: 100 * (1 - indel distance / total length), via the longest common
  // subsequence; extractOne keeps the first of equal scores.
  function ratio(a, b) {
    var total = a.length + b.length;
    if (total === 0) return 100;
    var previous = new Int32Array(b.length + 1);
    var current = new Int32Array(b.length + 1);
    for (var i = 1; i <= a.length; i++) {
      for (var j = 1; j <= b.length; j++) {
        current[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
      }
      var swap = previous; previous = current; current = swap;
    }
    var distance = total - 2 * previous[b.length];
    return (1 - distance / total) * 100;
  }

  Matcher.prototype.fuzzy = function (cls, firstLine) {
    var choices = Object.prototype.hasOwnProperty.call(this.data.fuzzy, cls) ? this.data.fuzzy[cls] : null;
    if (this.runtime[cls]) {
      var fuzzy = this.data.fuzzy;
      choices = [];
      (this.data.runtimeClasses || []).forEach(function (name) {
        if (Object.prototype.hasOwnProperty.call(fuzzy, name)) choices = choices.concat(fuzzy[name]);
      });
    }
    if (!choices || !firstLine) return null;
    var query = codePoints(firstLine).slice(0, 300);
    var cutoff = this.data.fuzzyCutoff;
    // Characters shared (as multisets) bound the common subsequence from above: choices that
    // cannot reach the cutoff even so are skipped without the quadratic comparison.
    var have = new Map();
    query.forEach(function (ch) { have.set(ch, (have.get(ch) || 0) + 1); });
    var best = null;
    for (var i = 0; i < choices.length; i++) {
      var choice = codePoints(choices[i][0]);
      var total = query.length + choice.length;
      if (total && (200 * Math.min(query.length, choice.length)) / total < cutoff) continue;
      var used = new Map();
      var shared = 0;
      for (var c = 0; c < choice.length; c++) {
        var count = (used.get(choice[c]) || 0) + 1;
        used.set(choice[c], count);
        if (count <= (have.get(choice[c]) || 0)) shared++;
      }
      if (total && (200 * shared) / total < cutoff) continue;
      var score = ratio(query, choice);
      if (score >= cutoff && (best === null || score > best.score)) best = { entry: choices[i][1], score: score };
    }
    return best === null ? null : { entry: best.entry, fields: {}, score: Math.floor(best.score) };
  };

  // ---- The last exception of a pasted text (a traceback, an exception line, a message) ----

  var CSI = /\x1b\[[0-?]*[ -\/]*[@-~]/g;
  var OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
  var OTHER_ESC = /\x1b[@-Z\\-_]?/g;
  // normalize.py's _LINK: also VS Code's line links to an unsaved file (`[5](untitled-1:5)`).
  var LINK = /\[([^\[\]\n]{1,500})\]\((?:https?|file|vscode[\w-]*):[^()\s]{0,2000}\)|\[(\d{1,7})\]\([\w.-]{1,200}:\d{1,7}\)/g;
  var FENCE = /^\s*(?:```|~~~)[\w+-]*\s*$/;
  // normalize.py's _BOLD_LINE: a whole line in markdown bold (`**ValueError: ...**`).
  var BOLD_LINE = /^\s*\*\*([^*\s](?:[^*]*[^*\s])?)\*\*\s*$/;
  // normalize.py's _ITALIC_LINE: in italics, an exception line only (`_IndexError: ..._`).
  var ITALIC_LINE = /^\s*(\*|_{1,2})([A-Za-z][\w.]*: \S(?:.*\S)?)\1\s*$/;
  var PREFIXES = [
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/,
    /^\((?:[\w.:-]+ )?pid=\d+(?:, ip=[\d.:a-fA-F]+)?\) ?/,
    /^\[pod\/[^\]\s]{1,200}\] ?/,
    /^[A-Za-z0-9][\w.-]{0,80} +\| ?/,
    /^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\]?(?: [A-Z]+)?:? /,
  ];
  var QUOTED_HEADER = /^> ?(?:Traceback \(most recent call last\)|\S+\s+Traceback \()/;
  var HEADER = /^\s*Traceback \(most recent call last\):\s*$/;
  var ANY_HEADER = /Traceback \(most recent call last\)/;
  var NOTEBOOK_HEADER = /^(?:In \[\d+\]: |\[\d+\]: )?([A-Za-z_][\w.]*)\s+Traceback \(most recent call last\)\s*$/;
  // A class defined in a function too: `jaxlib.mlir._mlir_libs._site_initialize.<locals>.MLIRError`.
  var EXCEPTION = /^([A-Za-z_]\w*(?:\.(?:<locals>\.)?[A-Za-z_]\w*)*)(?::(.*))?$/;
  // fragments.py's exception_repr: a paste that is `ValueError("...")`, maybe cut.
  var EXCEPTION_REPR = /^\s*([A-Za-z_][\w.]*(?:Error|Exception))\((['"])((?:\\[\s\S]|(?!\2)[\s\S])*)(?:\2\)\s*$|$)/;
  var BARE = /(?:Error|Exception|Interrupt|Exit|Warning|Group|Iteration)$/;
  // A frame's source pasted unindented, `out: Array = f(x)`, is code (dialects/common.py).
  var ANNOTATED = /^[a-z_][a-z0-9_]*: [A-Za-z_][\w.]*(?:\[[^\]=]*\])? = /;
  var SEPARATORS = [
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
  ];
  var MESSAGE_END = new RegExp(
    "^(?:In \\[\\d+\\]:|>>> |\\$(?: |$)|\u276f |={5,}|_{5,} |-{40,}$" +
      "|\\S+ +Traceback \\(most recent call last\\)$|##\\[\\w+\\]" +
      "|[IWEF]\\d{4} \\d\\d:\\d\\d:\\d+\\.\\d+ +\\d+ \\S+:\\d+\\] )"
  );
  var E_LINE = /^E((?: .*)?)$/;
  var SUMMARY = /^\s*(?:FAILED|ERROR) \S+ - (.*)$/;
  // fragments.py: JAX's logger since 0.6 closes its header with `module:line] `.
  var LOGGED = /^(?:ERROR|CRITICAL|FATAL|WARNING)(?::(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+|[A-Za-z_][\w.]*|\d+))*(?: [A-Za-z_][\w.]*:\d+\]|:)\s*(\S.*)$/;
  var SECTION = /^_{3,} .+? _{3,}$/;
  var PYTEST_END = /^(?:={3,}|_{3,} .+ _{3,}$)/;
  var ONE_LINE = /^(?:[A-Za-z]:)?[^:\s][^:]*?\.py:\d+: ([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Group)): (.*)$/;
  var WRAPPERS = ["UnfilteredStackTrace", "FilteredStackTrace", "SimplifiedTraceback", "JaxStackTraceBeforeTransformation"];
  var WRAPPER_TAIL = /\n*(?:The stack trace (?:below|above) excludes JAX-internal frames\.|The preceding stack trace is the source of the JAX operation)/;
  var NOTE = "--------------------\nFor simplicity, JAX has removed its internal frames";

  function exceptionLine(line) {
    var found = EXCEPTION.exec(line);
    if (!found || ANNOTATED.test(line) || (found[2] === undefined && !BARE.test(found[1]))) return null;
    return found;
  }
  // A separator cut where the paste stops counts too, from 30 characters (dialects/common.py).
  function isSeparator(line) {
    var t = line.trim();
    return SEPARATORS.some(function (s) { return s === t || (t.length >= 30 && s.indexOf(t) === 0); });
  }

  function cleanLines(text) {
    var stripped = text.trim();
    if (stripped.charAt(0) === "{" && stripped.slice(-1) === "}" && stripped.indexOf('"stack"') >= 0) {
      try {
        var data = JSON.parse(stripped);
        if (data && typeof data.stack === "string") text = data.stack;
      } catch (error) { /* not JSON after all */ }
    }
    text = text.replace(/\x00/g, "").replace(OSC, "").replace(CSI, "").replace(OTHER_ESC, "");
    text = text.replace(/\r\n/g, "\n");
    var lines = text.split("\n").map(function (line) {
      if (line.indexOf("\r") < 0) return line;
      var segments = line.split("\r").filter(function (s) { return s.trim(); });
      return segments.length ? segments[segments.length - 1] : "";
    });
    lines = lines.filter(function (line) { return !FENCE.test(line); }).map(function (line) {
      line = line.replace(LINK, function (_, text, number) { return text || number; });
      var bold = BOLD_LINE.exec(line);
      var italic = bold ? null : ITALIC_LINE.exec(line);
      return (bold ? bold[1] : italic ? italic[2] : line).replace(/\s+$/, "");
    });
    var ticked = lines.filter(function (l) { return l.length > 1 && l[0] === "`" && l[l.length - 1] === "`"; });
    // prefixes.py: every line in inline code, or the paste's one line (jax-md#295).
    var alone = ticked.length === 1 && lines.filter(function (l) { return l.trim(); }).length === 1;
    if (ticked.length >= 2 || alone) {
      lines = lines.map(function (l) { return l.length > 1 && l[0] === "`" && l[l.length - 1] === "`" ? l.slice(1, -1) : l; });
    }
    // prefixes.py: a quoted block holding a traceback header, or every line quoted (a reply),
    // level by level (`> > `).
    for (var depth = 0; depth < 4; depth++) {
      var filled = lines.filter(function (l) { return l.trim(); });
      var allQuoted = filled.length > 0 && filled.every(function (l) { return /^>(?: |$)/.test(l); });
      if (!allQuoted && !lines.some(function (l) { return QUOTED_HEADER.test(l); })) break;
      lines = lines.map(function (l) { return l.replace(/^> ?/, ""); });
    }
    // prefixes.py's _diff_added: a diff's added lines, without the `+` and their shared indent.
    var filledLines = lines.filter(function (l) { return l.trim(); });
    if (filledLines.length >= 2 && filledLines.every(function (l) { return l[0] === "+"; })) {
      var bare = lines.map(function (l) { return l.slice(1); });
      var indent = Math.min.apply(null, bare.filter(function (l) { return l.trim(); }).map(function (l) {
        return l.length - l.replace(/^\s+/, "").length;
      }));
      lines = bare.map(function (l) { return l.slice(indent); });
    }
    PREFIXES.forEach(function (prefix) {
      var hits = lines.map(function (l) { return prefix.exec(l); });
      if (hits.filter(Boolean).length < 2) return;
      lines = lines.map(function (l, i) {
        var neighbour = (i > 0 && hits[i - 1]) || (i + 1 < lines.length && hits[i + 1]);
        return hits[i] && neighbour ? l.slice(hits[i][0].length) : l;
      });
    });
    return lines;
  }

  function trimTail(lines) {
    while (lines.length > 1 && !lines[lines.length - 1].trim()) lines.pop();
    return lines;
  }

  function readMessage(lines, index, found) {
    var message = [(found[2] || "").replace(/^ /, "")];
    // fragments.py: pytest's summary prints one line per test, the message that line's alone.
    var summary = /^\s*(?:FAILED|ERROR) /.test(lines[index]);
    for (var i = index + 1; i < lines.length && !summary; i++) {
      var line = lines[i];
      if (HEADER.test(line) || isSeparator(line) || MESSAGE_END.test(line)) break;
      message.push(line);
    }
    return { exception: found[1], message: trimTail(message).join("\n") };
  }

  function splitNote(message) {
    var position = message.indexOf(NOTE);
    if (position < 0) return message;
    var head = message.slice(0, position).replace(/\n+$/, "");
    var after = message.slice(position + 21);
    var newline = after.indexOf("\n");
    var rest = newline < 0 ? "" : after.slice(newline + 1).replace(/^\n+|\n+$/g, "");
    return rest ? head + "\n" + rest : head;
  }

  function unwrap(found) {
    if (WRAPPERS.indexOf(shortClass(found.exception)) < 0) return found;
    var newline = found.message.indexOf("\n");
    var first = newline < 0 ? found.message : found.message.slice(0, newline);
    var rest = newline < 0 ? "" : found.message.slice(newline + 1);
    var inner = EXCEPTION.exec(first);
    if (!inner || inner[2] === undefined || inner[1].indexOf(" ") >= 0) return found;
    var message = inner[2].replace(/^ /, "") + (rest ? "\n" + rest : "");
    var tail = WRAPPER_TAIL.exec(message);
    if (tail) message = message.slice(0, tail.index);
    return { exception: inner[1], message: message.replace(/\s+$/, "") };
  }

  // pytest's --tb=long/short `E` lines, and --tb=line's `path.py:12: Class: message`.
  function pytestErrors(lines, last) {
    var errors = [];
    for (var i = last; i >= 0; i--) {
      var line = lines[i];
      if (isSeparator(line) || SECTION.test(line) || PYTEST_END.test(line) || ANY_HEADER.test(line)) break;
      var e = E_LINE.exec(line);
      if (e) errors.unshift(e[1]);
    }
    var indent = errors[0].length - errors[0].replace(/^ +/, "").length;
    var texts = errors.map(function (e) { return e.slice(0, indent).trim() === "" ? e.slice(indent) : e.replace(/^\s+/, ""); });
    for (var t = 0; t < texts.length; t++) {
      var found = exceptionLine(texts[t]);
      if (found) {
        var message = [(found[2] || "").replace(/^ /, "")].concat(texts.slice(t + 1));
        return { exception: found[1], message: trimTail(message).join("\n") };
      }
    }
    return null;
  }

  function lastOf(lines, regex) {
    for (var i = lines.length - 1; i >= 0; i--) { if (regex.test(lines[i])) return i; }
    return -1;
  }

  // {exception, message} of the last exception in the text; exception "" when none is named.
  function lastException(text) {
    var lines = cleanLines(text);
    var header = lastOf(lines, ANY_HEADER);
    var eLine = lastOf(lines, E_LINE);
    var oneLine = lastOf(lines, ONE_LINE);
    var found = null;
    if (oneLine > header && oneLine > eLine) {
      var one = ONE_LINE.exec(lines[oneLine]);
      found = { exception: one[1], message: one[2] };
    } else if (eLine > header) {
      found = pytestErrors(lines, eLine);
    }
    if (!found && header >= 0) {
      for (var j = header + 1; j < lines.length && !found; j++) {
        var line = lines[j];
        var exc = line[0] === " " || line[0] === "\t" ? null : exceptionLine(line);
        if (exc) found = readMessage(lines, j, exc);
      }
      // ipython.py: a notebook's header names the class when the paste stops before its line.
      var named = NOTEBOOK_HEADER.exec(lines[header]);
      if (!found && named) found = { exception: named[1], message: headlessWrapper(lines) };
    }
    // fragments.py's commented_exception: the text opens with the error as a comment
    // (`# ValueError: ...`), the rest of its message on the lines after.
    if (!found) found = openingException(lines, true);
    if (!found) {
      // fragments.py: the last line that names an exception by its class's name (a log's
      // `Key: value` lines before it are no exception), else the first `Name: text` line.
      for (var n = lines.length - 1; n >= 0 && !found; n--) {
        var classed = exceptionLine(lines[n]);
        if (classed && classed[2] !== undefined && BARE.test(classed[1])) found = readMessage(lines, n, classed);
      }
      for (var m = 0; m < lines.length && !found; m++) {
        // pytest's short summary: `FAILED path::test - Class: message...` (fragments.py).
        var summary = SUMMARY.exec(lines[m]);
        var bare = exceptionLine(summary ? summary[1] : lines[m]);
        if (bare && bare[2] !== undefined) {
          found = readMessage(lines, m, bare);
          found.loose = true;  // any `Name: text` line: the whole text is read too (explain)
        }
      }
      var repr = found ? null : EXCEPTION_REPR.exec(text);
      if (repr) found = { exception: repr[1], message: unescapePython(repr[3].replace(/\n/g, "")) };
      if (!found) found = { exception: "", message: lines.join("\n").trim() };
    }
    found.message = splitNote(found.message);
    return reprInMessage(unwrap(found));
  }

  // fragments.py's _opening_exception: the exception line the text opens with (after a `#`
  // when commented), the lines after it the rest of its message; null when it opens otherwise.
  function openingException(lines, commented) {
    var first = 0;
    while (first < lines.length && !lines[first].trim()) first++;
    if (first === lines.length) return null;
    var comment = commented ? /^\s*#+\s*/.exec(lines[first]) : null;
    if (commented && !comment) return null;
    var named = exceptionLine(lines[first].slice(comment ? comment[0].length : 0));
    if (!named || named[2] === undefined) return null;
    var message = [named[2].replace(/^ /, "")].concat(lines.slice(first + 1)).join("\n");
    return { exception: named[1], message: message.replace(/^\n+|\n+$/g, "") };
  }

  // jax.py's headless_wrapper: a paste starting inside JaxStackTraceBeforeTransformation's
  // message (its header not copied) gives that text to the error the chain ends in.
  var BEFORE_TAIL = "The preceding stack trace is the source of the JAX operation";
  function headlessWrapper(lines) {
    for (var i = 0; i < lines.length && !isSeparator(lines[i]); i++) {
      if (ANY_HEADER.test(lines[i])) return "";
      if (lines[i].indexOf(BEFORE_TAIL) === 0) return lines.slice(0, i).join("\n").replace(/^\n+|\s+$/g, "");
    }
    return "";
  }

  // fragments.py's repr_in_message: `Exception: 'TracerArrayConversionError("...` (dask's log of
  // a task's exception): that exception, its message unescaped twice.
  function reprInMessage(found) {
    if (shortClass(found.exception) !== "Exception") return found;
    var text = found.message.trim();
    var quote = text.charAt(0);
    if (quote === "'" || quote === '"') {
      text = text.slice(1);
      if (text.slice(-1) === quote) text = text.slice(0, -1);
      text = unescapePython(text);
    }
    var repr = EXCEPTION_REPR.exec(text);
    if (!repr) return found;
    return { exception: repr[1], message: unescapePython(repr[3].replace(/\n/g, "")) };
  }

  // upgrades/resolve.py without the user's release: a missing JAX (or library) name is
  // explained by the entry its API history supports, or by none when the history lacks it.
  // JAX and the libraries whose API history is kept (upgrades/resolve.py `_ROOTS`).
  var ROOTS = "(?:jax|flax|optax|equinox|chex|orbax)";
  var NO_ATTRIBUTE = new RegExp("module '(" + ROOTS + "(?:\\.\\w+)*)' has no attribute '(\\w+)'");
  var NO_MODULE = new RegExp("No module named '(" + ROOTS + "(?:\\.\\w+)+)'");
  var CANNOT_IMPORT = new RegExp("cannot import name '(\\w+)' from '(" + ROOTS + "(?:\\.\\w+)*)'");

  function nameIn(exception, message) {
    var cls = shortClass(exception || ""), text = message.trim(), found;
    if (cls === "AttributeError" || cls === "") {
      found = NO_ATTRIBUTE.exec(text);
      if (found) return found[1] + "." + found[2];
    }
    if (cls === "ModuleNotFoundError" || cls === "ImportError" || cls === "") {
      found = NO_MODULE.exec(text);
      if (found) return found[1];
      found = CANNOT_IMPORT.exec(text);
      if (found) return found[2] + "." + found[1];
    }
    return null;
  }

  Matcher.prototype.upgrade = function (exception, message, current) {
    var data = this.data.upgrades;
    if (!data) return current;
    if (!this.upgradeNames) {
      var byName = function (table) {
        var names = {};
        Object.keys(table).forEach(function (entry) {
          table[entry].forEach(function (name) { names[name] = Number(entry); });
        });
        return names;
      };
      this.upgradeNames = byName(data.direct);
      this.upgradeWhole = byName(data.whole);
      this.upgradeModules = byName(data.modules || {});
      this.upgradeUnimported = {};
      var unimported = (data.unimported && data.unimported.names) || [];
      for (var m = 0; m < unimported.length; m++) this.upgradeUnimported[unimported[m]] = true;
      this.upgradeEntries = {};
      for (var u = 0; u < data.entries.length; u++) this.upgradeEntries[data.entries[u]] = true;
    }
    var ours = current !== null && !!this.upgradeEntries[current.entry];
    if (current !== null && this.entries[current.entry][3] && !ours) return current;
    var fallback = ours ? null : current;
    var name = nameIn(exception, message);
    if (name === null) return this.removedWords(exception, message, fallback);
    var parts = name.split(".");
    var own = Object.prototype.hasOwnProperty;
    var cls = shortClass(exception || "");
    // upgrades/resolve.py's _unimported: a module the release has, its parent not importing it.
    var entry = data.unimported ? data.unimported.entry : null;
    if ((cls === "AttributeError" || cls === "") && NO_ATTRIBUTE.test(message) &&
        own.call(this.upgradeUnimported, name) && entry !== null && entry !== undefined) {
      var parent = parts.slice(0, -1).join(".");
      return {
        entry: entry, score: 100,
        fields: { name: name, module: parent, attribute: parts[parts.length - 1], status: "not-imported" },
      };
    }
    // `No module named 'jax.config'` needs the module; an attribute of that name does not do.
    var names = NO_MODULE.test(message) ? this.upgradeModules : this.upgradeNames;
    for (var k = 2; k <= parts.length; k++) {
      var prefix = parts.slice(0, k).join(".");
      if (own.call(names, prefix)) {
        return { entry: names[prefix], fields: { name: prefix }, score: 100 };
      }
    }
    if (names !== this.upgradeModules && own.call(this.upgradeWhole, name)) {
      return { entry: this.upgradeWhole[name], fields: { name: name }, score: 100 };
    }
    // upgrades/resolve.py's is_private: a JAX name with a private part, no history holds it.
    var isPrivate = parts[0] === "jax" && parts.slice(1).some(function (p) { return p[0] === "_"; });
    var warned = /Warning$/.test(shortClass(exception));
    if (fallback === null && isPrivate && !warned && data.private !== null && data.private !== undefined) {
      return { entry: data.private, fields: { name: name, status: "private" }, score: 100 };
    }
    return fallback;
  };

  // upgrades/resolve.py's _in_jax_words: the AttributeError JAX raises for a name it removed,
  // worded by its table of deprecations without always spelling the name.
  Matcher.prototype.removedWords = function (exception, message, fallback) {
    var table = this.data.upgrades.removedWords || {};
    if (shortClass(exception || "") !== "AttributeError" || message.indexOf("removed") < 0) {
      return fallback;
    }
    var text = message.trim().split(/\s+/).join(" ");
    var found = Object.keys(table).filter(function (said) { return text.indexOf(said) === 0; });
    var names = [].concat.apply([], found.map(function (said) { return table[said][0]; }));
    if (names.length !== 1 || table[found[0]][1] === null) return fallback;
    return { entry: table[found[0]][1], fields: { name: names[0], status: "removed" }, score: 100 };
  };

  // catalog/classes.py's match_by_class: when no text matched, a JAX-specific class names its
  // entry or its family's, and XLA's runtime class (or a RuntimeError carrying a status) the
  // entry of its status. Generic classes are not in the table.
  Matcher.prototype.byClass = function (exception, message) {
    var table = this.data.classes;
    var printed = exception.trim();
    if (!table || !printed || /\s/.test(printed)) return null;
    var short = shortClass(printed);
    var own = table.ownNames.some(function (prefix) { return printed.indexOf(prefix) === 0; });
    var cls = !own && Object.prototype.hasOwnProperty.call(table.renamed, short) ? table.renamed[short] : short;
    var status = "";
    var stripped = message.replace(/^\s+/, "");
    var prefix = new RegExp(this.data.statusPrefix, "y");
    var head = prefix.exec(stripped);
    // The prefix matches only XLA's codes, in today's or older releases' spelling.
    if (head) status = head[0].trim().replace(/:$/, "").toUpperCase().replace(/ /g, "_");
    var entry;
    if (status && (cls === table.runtime || table.carriers.indexOf(cls) >= 0)) {
      entry = table.statuses[status];
    } else if (status) {
      return null;
    } else {
      if (printed.indexOf(".") >= 0) {
        // From JAX's stack, or from XLA's extension wherever it was built into.
        var modules = printed.split(".").slice(0, -1);
        var xla = modules.some(function (m) { return (table.xlaModules || []).indexOf(m) >= 0; });
        if (table.modules.indexOf(modules[0]) < 0 && !xla) return null;
      }
      // A JAX wrapper names the note's entry only when its message (the error) was not copied.
      if ((table.wrappers || []).indexOf(cls) >= 0 && message.trim()) return null;
      entry = table.names[cls];
    }
    return entry === undefined ? null : { entry: entry, fields: {}, score: 50, by: "class" };
  };

  // A pasted text: its last exception, matched, and a missing name explained by its history.
  Matcher.prototype.explain = function (text) {
    var found = lastException(text);
    var match = this.match(found.exception, found.message);
    match = this.upgrade(found.exception, found.message, match);
    if (match === null) match = this.byClass(found.exception, found.message);
    if (match === null) {
      // fragments.py's logged_messages: what a logged error line says (`ERROR: text`,
      // `ERROR:absl:text`), when the whole text named nothing.
      var lines = cleanLines(text);
      for (var i = 0, tried = 0; i < lines.length && match === null && tried < 12; i++) {
        var logged = LOGGED.exec(lines[i].trim());
        if (!logged) continue;
        tried++;
        var message = [logged[1]];
        for (var j = i + 1; j < lines.length; j++) {
          var after = lines[j].trim();
          if (!after || LOGGED.test(after) || lines[j].indexOf("Traceback") === 0) break;
          message.push(after);
        }
        var read = { exception: "", message: message.join("\n") };
        match = this.match("", read.message);
        if (match !== null) found = read;
      }
    }
    if (match === null && found.loose) {
      // parse.py's paste_readings: the whole text as a message without its class, when the
      // line read as its exception names nothing (`Delay:  1` above a log's error line).
      var whole = cleanLines(text).join("\n").trim();
      var anyClass = this.match("", whole);
      if (anyClass !== null && anyClass.score >= 100) {
        match = anyClass;
        found = { exception: "", message: whole };
      }
    }
    if (match === null) {
      // parse.py: the exception line the text opens with, the rest its message (the error,
      // then output copied after it that ends in another class's line).
      var opening = openingException(cleanLines(text), false);
      var byOpening = opening && opening.exception !== found.exception ? this.match(opening.exception, opening.message) : null;
      if (byOpening !== null && byOpening.score >= 100) {
        match = byOpening;
        found = opening;
      }
    }
    if (match === null && found.exception === "") {
      // loose.py's _printed_line: a short text's line that is, alone, an entry's message (a
      // program printing the error between its own lines); JAX's note is not one.
      var printed = cleanLines(text);
      var bounds = this.data.printedLines;
      for (var k = 0; k < printed.length && printed.length <= bounds[0] && match === null; k++) {
        var line = printed[k].trim();
        if (line.length < bounds[1]) continue;
        var hit = this.match("", line);
        if (hit !== null && hit.score >= 100 && this.entries[hit.entry][0] !== this.data.wrapperNote) {
          match = hit;
          found = { exception: "", message: line };
        }
      }
    }
    return { found: found, match: match };
  };

  var api = { Matcher: Matcher, lastException: lastException, norm: norm };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.JaxerrMatch = api;
})(this);
