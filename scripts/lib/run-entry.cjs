// Runs an ES module entry (a .ts script) in this process, as `node <file> <args>` would: loaded only
// on Node 24 or later by scripts/require-node.cjs, whose own syntax must stay old.
"use strict";
const url = require("url");

module.exports = function runEntry(file, args) {
  process.argv = [process.argv[0], file].concat(args);
  import(url.pathToFileURL(file).href).catch((error) => {
    process.exitCode = 1;
    // Reported as Node reports an entry's uncaught error.
    setImmediate(() => {
      throw error;
    });
  });
};
