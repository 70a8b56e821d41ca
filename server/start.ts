// `npm start`. React picks its development or production build from NODE_ENV when first imported,
// so NODE_ENV is settled here, before anything imports React.
process.env.NODE_ENV ??= 'production';
try {
  await import('./serve');
} catch (error) {
  // Whatever failed after the database opened, it is stopped before the process exits.
  const { failStart, startFailure } = await import('./start-failure');
  await failStart(startFailure(error), error);
}

export {};
