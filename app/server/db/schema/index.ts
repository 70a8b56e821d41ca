export * from './audit';
export * from './auth';
export * from './copies';
export * from './instances';
export * from './saved-filters';
export * from './shop';
