// The header's search box on every page takes what users paste: a whole traceback keeps its
// lines (a textarea, not an <input>, which would flatten it into one line). Enter searches,
// Shift+Enter adds a line. The text travels to the index page in the URL's fragment
// (index.html#q=...), which stays in the browser: never sent to a web server (no length limit
// there, no traceback in its logs), and fine from file://.
(function () {
  "use strict";
  var form = document.querySelector("header form[role=search]");
  if (!form) return;
  var box = form.querySelector("textarea[name=q]");
  function go(event) {
    if (event) event.preventDefault();
    var text = box.value.replace(/\r\n?/g, "\n");
    if (!text.trim()) return;
    window.location.href = form.getAttribute("action") + "#q=" + encodeURIComponent(text);
  }
  form.addEventListener("submit", go);
  box.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) go(event);
  });
  // A pasted traceback shows as more than one line while it is edited.
  box.addEventListener("input", function () {
    box.rows = Math.min(8, Math.max(1, box.value.split("\n").length));
  });
})();
