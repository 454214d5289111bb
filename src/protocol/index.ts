export * from './kinds';
export * from './names';
export * from './cloud';
export * from './specs';
export * from './canonical-json';
export * from './handler-contract';
export * from './spec-input';
export * from './provider-address';
