// The per-context queue of Hailo: Compile Model is the compile pool (server/src/processes/compile/pool.ts):
// one compile per docker context at a time unless a sweep plan gave the context a wider width; the
// extension holds one pool (Compiler.pool) that single compiles and sweeps share.
export { CompilePool as CompileQueue, type PoolJob as QueuedJob } from '@hailo/api';
