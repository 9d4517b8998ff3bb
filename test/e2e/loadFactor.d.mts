// Types of loadFactor.mjs (plain node, run by run.mjs) for the TypeScript that imports it.
export interface LoadMeasure {
  factor: number;
  contention: number;
  loadPerCore: number;
  load: number[];
  cores: number;
}
export const MAX_FACTOR: number;
export function measureLoadFactor(): LoadMeasure;
export function describeLoad(m: LoadMeasure): string;
