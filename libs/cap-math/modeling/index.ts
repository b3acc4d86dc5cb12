export * from './round-types';
export * from './round';
export * from './waterfall';
