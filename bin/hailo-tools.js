#!/usr/bin/env node
'use strict';
// Thin launcher: the CLI is bundled by esbuild into dist/cli.js (npm install runs the build via `prepare`).
const path = require('path');
const fs = require('fs');
const cli = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(cli)) {
  process.stderr.write('hailo-tools: dist/cli.js is missing; run `npm run build` in ' + path.dirname(__dirname) + '\n');
  process.exit(2);
}
require(cli).main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  process.stderr.write('hailo-tools: internal error: ' + (err && err.stack || err) + '\n');
  process.exitCode = 2;
});
