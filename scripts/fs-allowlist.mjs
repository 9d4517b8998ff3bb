// The confined file layer (issue 29, SECURITY.md "Files a folder names"): in server/src and client/src
// only these modules may import node:fs / fs/promises, each for a reason that is not a folder-derived
// path. eslint.config.mjs and the security scan (test/helpers/securityScan.ts) both read this table.
export const FS_ALLOWED = [
  { path: 'server/src/core/common/fileAccess.ts', reason: 'the layer: reads of a descriptor FileRoots opened (no path is opened here)' },
  { path: 'server/src/core/common/confined.ts', reason: 'the layer: FileRoots, every folder-derived read and write' },
  {
    path: 'server/src/cli/compileCache.ts',
    reason: "the CLI's V8 code cache: the CLI's own bundle and a private 0700 folder under the user's cache folder, never a path a folder names",
  },
  {
    path: 'server/src/processes/device/nativeBuild.ts',
    reason: "builds the HailoRT shim from the extension's own native/ sources into the product's storage folder (paths from the install, not from a folder)",
  },
  {
    path: 'server/src/processes/accuracy/ortProcess.ts',
    reason: "finds onnxruntime-node in the product's node_modules or the machine-scoped hailo.onnxruntimePath setting (the user's own machine path)",
  },
  {
    path: 'client/src/testing/commandBridge.ts',
    reason:
      "the e2e command bridge: checks and cleans its own socket in the private 0700 folder the test runner names in HAILO_TOOLS_E2E_BRIDGE (absent in a user's VS Code, where it never starts); never a path a folder names",
  },
];

/**
 * Path-taking functions fileAccess.ts once had (issue 29 removed them: FileRoots is the one way to
 * the disk). Importing one of these names from fileAccess or @hailo/api is refused by eslint and the
 * security scan, should one come back.
 */
export const UNCONFINED_FILE_ACCESS = [
  'statRegularSync',
  'openRegularFile',
  'openRegularFileSync',
  'readSmallFileSync',
  'fileStamp',
  'realPathOf',
  'confinePath',
  'confinedOrUndefined',
  'openForWriteSync',
  'createWriteStreamNoFollow',
  'writeFileNoFollowSync',
  'walkFilesSync',
];
