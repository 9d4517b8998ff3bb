// Every HEF the project commits or its shared test generators build: committed files under
// test/fixtures and examples/, the built fixture catalogue, the device, GenAI and NMS fixtures, and
// the HEFs tests build from the specs of inlineHefs.ts and the e2e hostile files. The guard test
// (test/unit/hef/hef-fixtures-load.test.ts) holds each to what HailoRT does with it; a file that is
// built to fail says so here, with what the real libhailort 5.2.0 answered.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { buildHef } from './hefBuilder';
import { inlineHefSpecs } from './inlineHefs';
import { hostileHefSpec, hostileSetupHefSpec } from '../e2e/hostileFiles';
import { FIXTURES, buildFixture } from './hefBuilderFixtures';
import { writeDeviceHefs } from './deviceFixtures';
import { writeGenAiHefs } from './genaiFixtures';
import { nmsFixtureFiles, ZOO_YOLOV8N_CONFIG_BLOB } from './nmsDetectors';
import { projectRoot } from './projectRoot';

export interface TestHef {
  name: string;
  bytes: Uint8Array;
  /** Built to fail Hef::create: 'crashes' or the hailo_status 5.2.0 answers. */
  fails?: 'crashes' | number;
}

function committed(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) committed(p, out);
    else if (name.endsWith('.hef')) out.push(p);
  }
  return out;
}

/** `dir`: a scratch folder the device and GenAI generators write into. */
export async function allTestHefs(dir: string): Promise<TestHef[]> {
  const out: TestHef[] = [];
  // The mtmd fixture built to fail "the HEF opens" carries an extension no HailoRT knows (5.2.0: 92).
  const builtToFail = new Map(FIXTURES.filter((f) => f.fails === 'hef-opens').map((f) => [f.file, 92] as const));
  for (const root of ['test/fixtures', 'examples']) {
    for (const p of committed(join(projectRoot, root))) {
      const fails =
        root === 'test/fixtures' && relative(join(projectRoot, 'test', 'fixtures', 'hef'), p) === basename(p) ? builtToFail.get(basename(p)) : undefined;
      out.push({ name: relative(projectRoot, p), bytes: new Uint8Array(readFileSync(p)), ...(fails !== undefined ? { fails } : {}) });
    }
  }
  for (const f of FIXTURES) out.push({ name: `built fixture ${f.file}`, bytes: await buildFixture(f), ...(builtToFail.has(f.file) ? { fails: 92 } : {}) });
  const device = await writeDeviceHefs(dir);
  for (const p of device.all) {
    const fails = p === device.corrupted ? 91 : p === device.crashes ? ('crashes' as const) : undefined;
    out.push({ name: `device ${relative(dir, p)}`, bytes: new Uint8Array(readFileSync(p)), ...(fails !== undefined ? { fails } : {}) });
  }
  for (const p of (await writeGenAiHefs(dir)).all) out.push({ name: `genai ${relative(dir, p)}`, bytes: new Uint8Array(readFileSync(p)) });
  const zooConfig = readFileSync(join(projectRoot, 'test', 'fixtures', 'nms', 'zoo-history', 'configs', `${ZOO_YOLOV8N_CONFIG_BLOB}.json`), 'utf8');
  for (const f of nmsFixtureFiles(zooConfig)) if (f.path.endsWith('.hef')) out.push({ name: `nms ${f.path}`, bytes: await f.bytes() });
  for (const { name, spec } of inlineHefSpecs()) out.push({ name, bytes: await buildHef(spec) });
  out.push(
    { name: 'e2e hostileHefSpec', bytes: await buildHef(hostileHefSpec()) },
    { name: 'e2e hostileSetupHefSpec (hailo8l)', bytes: await buildHef(hostileSetupHefSpec()) },
  );
  return out;
}
