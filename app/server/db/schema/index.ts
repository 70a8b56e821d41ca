export * from './audit';
export * from './auth';
export * from './instances';
export * from './media';
export * from './saved-filters';
export * from './shop';
