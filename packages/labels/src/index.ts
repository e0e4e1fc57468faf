// Browser-safe entry: nothing here may import a Node-only module (the editor imports it).
// The model alone (no drawing) is the `@esl/labels/model` entry.
export * from './brand';
export * from './canvas';
export * from './decode';
export * from './draw';
export * from './encode';
export * from './font';
export * from './legible';
export * from './load';
export * from './model';
export * from './pack';
export * from './pipeline';
export * from './png';
export * from './quantise';
export * from './raster';
export * from './scripts';
export * from './shape';
export * from './symbols';
export * from './text';
export * from './values';
export * from './woff2';
