export * from './audit';
export * from './auth';
export * from './instances';
export * from './refund-iban';
export * from './saved-filters';
export * from './shares';
export * from './shop';
export * from './tracking';
