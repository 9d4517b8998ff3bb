// Types of import-cycles.mjs (read by test/unit/repo/import-cycles.test.ts).
export declare function importGraph(folders: string[]): Map<string, string[]>;
export declare function stronglyConnected(graph: Map<string, string[]>): string[][];
export declare function importCycles(folders: string[], root?: string): string[][];
