export * from './audit';
export * from './auth';
export * from './instances';
export * from './saved-filters';
export * from './shop';
export * from './reviews';
