// Runs the site's matcher (match.js) over inputs read as JSON from stdin:
// ["text", pasted] (a traceback or message, as pasted in the search box) or
// ["message", exception, message] (already parsed). Prints one [entry id | null, score] each.
global.window = global;
require(process.argv[2]); // search-data.js assigns window.JAXERR_SEARCH
const site = require(process.argv[3]);
const matcher = new site.Matcher(global.JAXERR_SEARCH);
const inputs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = inputs.map((input) => {
  const result =
    input[0] === "text" ? matcher.explain(input[1]).match : matcher.match(input[1], input[2]);
  return result ? [matcher.entries[result.entry][0], result.score] : [null, 0];
});
process.stdout.write(JSON.stringify(out));
