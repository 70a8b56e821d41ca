import { log } from '~/server/log.server';

/*
 * The loggers handed to libraries that accept one, so that what they say goes through the
 * scrubbing logger as JSON (with the request's id) rather than to the console.
 */

/**
 * The AWS SDK's (its `logger` option): its warnings and errors; its debug and info lines describe
 * every request and answer, too many and too close to the files' data to keep.
 */
export const awsSdkLogger = {
  debug: () => {},
  info: () => {},
  warn: (...details: unknown[]) => log.warn({ source: 'aws-sdk', details }, 'AWS SDK warning'),
  error: (...details: unknown[]) => log.error({ source: 'aws-sdk', details }, 'AWS SDK error'),
};
