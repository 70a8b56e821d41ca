// `npm start`. React picks its development or production build from NODE_ENV when first imported,
// so NODE_ENV is settled here, before anything imports React.
process.env.NODE_ENV ??= 'production';
await import('./serve');

export {};
