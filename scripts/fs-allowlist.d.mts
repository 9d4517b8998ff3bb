// Types of fs-allowlist.mjs (read by eslint.config.mjs and the security scan).
export declare const FS_ALLOWED: readonly { path: string; reason: string }[];
export declare const UNCONFINED_FILE_ACCESS: readonly string[];
