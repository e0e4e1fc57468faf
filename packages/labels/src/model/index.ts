// The template model: colours, the document schema and its limits, element traits, migrations
// and pure edits. No canvas, no renderer: the contract, the server and the editor import it at
// run time without pulling in drawing code (scripts/imports.ts keeps it so).
export * from './colours';
export * from './document';
export * from './edit';
export * from './limits';
export * from './migrate';
export * from './traits';
