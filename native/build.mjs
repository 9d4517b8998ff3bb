// Builds the HailoRT bridge (native/hailo_shim.cpp) with the system C++ compiler against an
// installed HailoRT — the same code path `hailo-tools devices|run` and the extension take on first
// use (server/src/processes/device/nativeBuild.ts). Or, with --syntax-only, checks that the shim and the
// fake's self-test compile against real HailoRT headers: an installed HailoRT, or a checkout of
// github.com/hailo-ai/hailort named by HAILORT_SRC (nothing is copied into this repository).
//
// Usage:
//   node native/build.mjs [--hailort DIR]        build (or find in the cache) and print the shim's path
//   node native/build.mjs --syntax-only          check against HAILORT_SRC or the installed HailoRT
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const bundle = join(root, 'out', `native-build-${process.pid}.cjs`);
await esbuild.build({
  entryPoints: [join(root, 'server/src/processes/device/nativeBuild.ts')],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'warning',
});
const require = createRequire(import.meta.url);
const nb = require(bundle);
// A person typing this command in a terminal is the trust decision (as for the CLI).
const trust = { action: 'node native/build.mjs' };
process.on('exit', () => rmSync(bundle, { force: true }));

function syntaxOnly() {
  let includeDir;
  let version;
  if (process.env.HAILORT_SRC) {
    includeDir = join(process.env.HAILORT_SRC, 'hailort', 'libhailort', 'include');
    const cmake = readFileSync(join(process.env.HAILORT_SRC, 'hailort', 'libhailort', 'CMakeLists.txt'), 'utf8');
    const v = (k) => Number(new RegExp(`set\\(HAILORT_${k}_VERSION\\s+(\\d+)\\)`).exec(cmake)?.[1]);
    version = { major: v('MAJOR'), minor: v('MINOR'), revision: v('REVISION') };
  } else {
    const found = nb.findHailoRT({ hailortRoot: opt('--hailort') });
    if (found.error) {
      console.error(`native/build.mjs: ${found.error.sentence}`);
      process.exit(2);
    }
    includeDir = found.includeDir;
    version = found.version;
  }
  if (!existsSync(join(includeDir, 'hailo', 'hailort.hpp'))) {
    console.error(`native/build.mjs: no hailo/hailort.hpp under ${includeDir}`);
    process.exit(2);
  }
  let failed = false;
  // The GenAI self-test targets hailort::genai as 5.0.1+ has it; 4.x's headers have another API.
  const genai = version.major > 5 || (version.major === 5 && (version.minor > 0 || version.revision >= 1));
  if (!genai)
    console.log(`skip test/fake-hailort/tests/genai_selftest.cpp (GenAI is HailoRT 5.0.1+, these are ${version.major}.${version.minor}.${version.revision})`);
  for (const file of [
    'native/hailo_shim.cpp',
    'native/hailo_genai.cpp',
    'native/hailo_speech.cpp',
    'native/hailo_health.cpp',
    'test/fake-hailort/tests/selftest.cpp',
    ...(genai ? ['test/fake-hailort/tests/genai_selftest.cpp'] : []),
  ]) {
    const r = spawnSync(
      process.env.CXX || 'c++',
      [
        '-std=c++17',
        '-fsyntax-only',
        '-Wall',
        `-DHAILORT_MAJOR_VERSION=${version.major}`,
        `-DHAILORT_MINOR_VERSION=${version.minor}`,
        `-DHAILORT_REVISION_VERSION=${version.revision}`,
        '-I',
        includeDir,
        join(root, file),
      ],
      { encoding: 'utf8' },
    );
    console.log(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${file} against HailoRT ${version.major}.${version.minor}.${version.revision} headers (${includeDir})`);
    if (r.status !== 0) {
      failed = true;
      console.log(r.stderr);
    }
  }
  process.exit(failed ? 1 : 0);
}

if (args.includes('--syntax-only')) syntaxOnly();
else {
  const found = nb.findHailoRT({ hailortRoot: opt('--hailort') });
  if (found.error) {
    console.error(`native/build.mjs: ${found.error.sentence}\n  (${found.error.message})`);
    process.exit(2);
  }
  const built = await nb.buildShim(trust, found, { sourceDir: join(root, 'native'), log: (m) => console.error(m) });
  if (built.error) {
    console.error(`native/build.mjs: ${built.error.sentence}\n${built.error.message}`);
    process.exit(1);
  }
  console.log(built.shimPath);
}
