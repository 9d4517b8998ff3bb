// Release knowledge (HailoRT, the Dataflow Compiler) as data, and the rule for a release not in it.
export * from './catalogue';
export * from './judge';
export * from './compileTargets';
