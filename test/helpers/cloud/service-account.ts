// A throwaway Google service account for tests: an RSA key pair made on the spot (never written to
// the repository), the JSON key file a gateway reads, and the public key a fake token endpoint checks
// assertions with.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestServiceAccount {
  email: string;
  keyId: string;
  publicKey: KeyObject;
  /** The key file's fields, as Google issues them. */
  json: Record<string, string>;
  /** Writes the key file into `dir` (a test's temp dir) and returns its path. */
  writeTo(dir: string, name?: string): string;
}

export function makeServiceAccount(project: string, tokenUri: string): TestServiceAccount {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = `gateway@${project}.iam.gserviceaccount.com`;
  const keyId = 'test-key-1';
  const json = {
    type: 'service_account',
    project_id: project,
    private_key_id: keyId,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
  };
  return {
    email,
    keyId,
    publicKey,
    json,
    writeTo(dir, name = 'service-account.json') {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(json), { mode: 0o600 });
      return path;
    },
  };
}
