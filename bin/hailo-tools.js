#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by esbuild into dist/cli.js (npm install runs the build via
// `prepare`; `npm pack` ships it).
const path = require('path');
const fs = require('fs');
// `hailo-tools check --json … | head`: when the reader goes away, stop quietly (no EPIPE stack
// trace); the exit status is the one already decided, else 0.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err && err.code === 'EPIPE') process.exit(process.exitCode || 0);
    throw err;
  });
}
// V8's compile cache (Node >= 22.1): the bundles' compiled code is kept between runs (in Node's
// default folder under the temp dir; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no
// such API: there the bundles are compiled on every start.
const nodeModule = require('module');
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
const cli = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  process.stderr.write('hailo-tools: dist/cli.js is missing; run `npm run build` in ' + path.dirname(__dirname) + '\n');
  process.exit(2);
}
require(cli)
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write('hailo-tools: internal error: ' + ((err && err.stack) || err) + '\n');
      process.exitCode = 2;
    },
  );
