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
