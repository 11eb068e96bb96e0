// Signs requests to AWS with Signature Version 4, using AWS's own signer. The signer and its hash
// are loaded on the first request, so a gateway without a Bedrock provider never loads them.
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface UnsignedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer;
}

interface Signer {
  sign(request: unknown): Promise<{ headers: Record<string, string> }>;
}

export class AwsRequestSigner {
  private signer?: Promise<Signer>;

  constructor(
    private readonly service: string,
    private readonly region: string,
    private readonly credentials: AwsCredentials,
  ) {}

  private load(): Promise<Signer> {
    this.signer ??= Promise.all([import('@smithy/signature-v4'), import('@smithy/hash-node')]).then(
      ([{ SignatureV4 }, { Hash }]) =>
        new SignatureV4({ service: this.service, region: this.region, credentials: this.credentials, sha256: Hash.bind(null, 'sha256') }) as unknown as Signer,
    );
    return this.signer;
  }

  /** The headers to send: the given ones plus host, x-amz-date, the session token and the authorization. */
  async sign(request: UnsignedRequest): Promise<Record<string, string>> {
    const signer = await this.load();
    const signed = await signer.sign({
      method: request.method,
      protocol: request.url.protocol,
      hostname: request.url.hostname,
      port: request.url.port ? Number(request.url.port) : undefined,
      path: request.url.pathname,
      query: {},
      headers: { ...request.headers, host: request.url.host },
      body: request.body,
    });
    return signed.headers;
  }
}
