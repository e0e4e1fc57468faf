// The station protocol (DELIVERY.md §4; docs/PROTOCOL.md): topics, payload schemas, codes, limits.
// Imported as `@esl/contract/protocol` by the server and the simulator; it depends on zod only.
export * from './codec';
export * from './codes';
export * from './firmware';
export * from './limits';
export * from './messages';
export * from './registry';
export * from './topics';
