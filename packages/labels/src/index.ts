// Browser-safe entry: nothing here may import a Node-only module (the editor imports it).
export * from './canvas';
export * from './colours';
export * from './document';
export * from './draw';
export * from './edit';
export * from './encode';
export * from './migrate';
export * from './pack';
export * from './pipeline';
export * from './png';
export * from './quantise';
export * from './symbols';
export * from './text';
export * from './values';
