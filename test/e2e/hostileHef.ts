// Builds, at e2e run time, a valid HEF whose names are HTML/script payloads, with the HEF team's
// test builder (test/helpers/hefBuilder.ts). The inspector must show these names as text: the
// browser scenario in ui/hef.ui.ts looks for injected elements and for the literal strings.
// Nothing generated is committed; the driver writes the file into the temp workspace.
import { writeFileSync } from 'node:fs';
import { buildHef, utf8 } from '../helpers/hefBuilder';

export const HOSTILE = {
  networkGroup: '<img src=x onerror="window.__hailoPwned=1">',
  input: '<svg onload="window.__hailoPwned=2"></svg>',
  output: '"><b data-injected=1>bold</b><script>window.__hailoPwned=3</script>',
  resource: "<iframe srcdoc='x' data-injected=1>",
};

export async function writeHostileHef(file: string): Promise<void> {
  const ng = HOSTILE.networkGroup;
  const bytes = await buildHef({
    version: 3,
    hwArch: 103,
    ccwsSize: 256,
    networkGroups: [
      {
        name: ng,
        networksNames: [`${ng}/${ng}`],
        inputs: [{ name: `${ng}/${HOSTILE.input}`, shape: [32, 32, 3], format: 1 }],
        outputs: [{ name: `${ng}/${HOSTILE.output}`, shape: [4, 4, 8], format: 1, zp: 1, scale: 0.5 }],
      },
    ],
    resources: [{ name: HOSTILE.resource, data: utf8(`{"note": "${HOSTILE.output.replace(/"/g, '\\"')}"}`) }],
  });
  writeFileSync(file, bytes);
}
