export * from './auth';
export * from './instances';
export * from './shop';
