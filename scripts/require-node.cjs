// Runs before `npm start` on whatever Node the shell has (hence CommonJS and no syntax newer than
// Node 8): the server needs Node 24, and an older one would fail on the first line of server.ts
// with an error that does not say so.
var major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  console.error(
    "Clausebridge needs Node 24; this is Node " +
      process.versions.node +
      ".\n" +
      "Run this in the project folder, then `npm start` again:\n\n" +
      "    . scripts/node-env.sh\n\n" +
      "(it installs Node 24 from the npm registry into tools/node and puts it first on PATH; with nvm,\n" +
      "`nvm use` reads .nvmrc instead).",
  );
  process.exit(1);
}
