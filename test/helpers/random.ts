// Seeded randomness for fuzz tests: a failure is reproducible from its seed.

export { prng } from '../../server/src/core/common/prng';
