export * from './audit';
export * from './auth';
export * from './instances';
export * from './reviews';
export * from './saved-filters';
export * from './shop';
