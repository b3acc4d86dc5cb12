export * from './round-types';
export * from './round';
