import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
// s3rver speaks S3's REST protocol (signed requests, multipart uploads, ranges) over a folder.
import S3rver from 's3rver';
import type { S3Settings } from '~/server/files/storage.server';

/*
 * A local server speaking Amazon S3's protocol, for the object-storage backend of the customers'
 * files (docs/decisions/011): the official SDK talks to it as to any S3-compatible service. Its
 * objects live in a temporary folder, so a test can check that a deleted file is really gone.
 */

export interface FakeS3 {
  settings: S3Settings;
  /** The variables a server process needs to use it. */
  env: Record<string, string>;
  /** Where the fake keeps the bucket's objects. */
  directory: string;
  close(): Promise<void>;
}

export const FAKE_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export async function startFakeS3({ bucket = 'soovenirs-fichiers' } = {}): Promise<FakeS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings: S3Settings = { endpoint, bucket, region: 'us-east-1', ...FAKE_S3_CREDENTIALS };
  return {
    settings,
    directory,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: FAKE_S3_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: FAKE_S3_CREDENTIALS.secretAccessKey,
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
