/**
 * An S3-compatible bucket as a backup target, through Bun's built-in S3 client (AWS S3, MinIO,
 * Garage, Backblaze B2, Cloudflare R2…). An object exists only once its PUT (or multipart upload,
 * for files past 5 MiB) completes, so an interrupted copy leaves whole objects only.
 *
 * The outbound guard (platform/outbound.ts) checks the endpoint's host and every address it
 * resolves to before a connection is opened (s3Storage is async for that reason): a private or
 * loopback endpoint needs CAIRN_OUTBOUND_ALLOW, as webhooks do. Bun's client then connects by
 * itself, so the address is checked, not pinned.
 */
import { S3Client } from "bun";
import { checkOutboundHost, OutboundError } from "../platform/outbound";
import { checkKey, type TargetStorage } from "./target-storage";
import type { S3Target } from "./targets-store";

/** The URL Bun's client is given: the endpoint, or bucket.endpoint when virtual-hosted. */
export function clientEndpoint(t: Pick<S3Target, "endpoint" | "bucket" | "pathStyle">): string {
  const url = new URL(t.endpoint);
  if (!t.pathStyle) url.hostname = `${t.bucket}.${url.hostname}`;
  return url.href.replace(/\/$/, "");
}

export async function s3Storage(t: S3Target, guard: { allow: string[]; timeoutMs: number }): Promise<TargetStorage> {
  const endpoint = clientEndpoint(t);
  await checkOutboundHost(endpoint, guard);
  const client = new S3Client({
    endpoint,
    region: t.region,
    bucket: t.bucket,
    accessKeyId: t.accessKeyId,
    secretAccessKey: t.secretAccessKey,
    virtualHostedStyle: !t.pathStyle,
    // Multipart uploads of 5 MiB parts, two at a time: Bun reads the parts it queues on the
    // main thread, and its default of five at once held the event loop ~75-110 ms at the start
    // of a 256 MB upload (two: 20-70 ms on a loaded two-core machine, at the same speed).
    partSize: 5 * 1024 * 1024,
    queueSize: 2,
  });
  const full = (key: string) => (t.prefix ? `${t.prefix}/${checkKey(key)}` : checkKey(key));
  const where = `bucket "${t.bucket}" at ${t.endpoint}`;
  return {
    where,
    async putFile(key, localPath, { signal, onBytes }) {
      if (signal.aborted) throw signal.reason ?? new Error("aborted");
      const file = Bun.file(localPath);
      await client.write(full(key), file, { type: "application/octet-stream" });
      onBytes(file.size);
    },
    async putBytes(key, bytes) {
      await client.write(full(key), bytes, { type: "application/octet-stream" });
    },
    async getBytes(key) {
      try {
        return new Uint8Array(await client.file(full(key)).arrayBuffer());
      } catch (err) {
        if ((err as { code?: string }).code === "NoSuchKey") return null;
        throw err;
      }
    },
    async remove(key) {
      await client.delete(full(key));
    },
    async sizes(keys) {
      // One listing of the prefix (1000 keys a request) instead of a request per key.
      const wanted = new Set(keys.map(full));
      const found = new Map<string, number>();
      const base = t.prefix ? `${t.prefix}/` : "";
      let continuationToken: string | undefined;
      do {
        const page = await client.list({ prefix: base, maxKeys: 1000, ...(continuationToken ? { continuationToken } : {}) });
        for (const o of page.contents ?? []) if (wanted.has(o.key)) found.set(o.key.slice(base.length), o.size ?? 0);
        continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
      } while (continuationToken);
      return found;
    },
    explain: (err) => explainS3(err, t),
  };
}

/** An S3 or network error in plain words: what is wrong and what to change. */
export function explainS3(err: unknown, t: Pick<S3Target, "endpoint" | "bucket">): string {
  if (err instanceof OutboundError) {
    const reason = err.message.replace(/^refused: /, "").replace(/; CAIRN_OUTBOUND_ALLOW can allow it$/, "");
    return err.kind === "refused"
      ? `Cairn does not connect to ${t.endpoint}: it is a ${reason}. If this server is yours, ` +
          `allow it with CAIRN_OUTBOUND_ALLOW (its host name or address).`
      : `The endpoint ${t.endpoint} cannot be reached: ${err.message}. Check the address.`;
  }
  const code = (err as { code?: string })?.code ?? "";
  const message = (err as Error)?.message ?? String(err);
  switch (code) {
    case "NoSuchBucket":
      return (
        `The bucket "${t.bucket}" does not exist at ${t.endpoint}. Create it, or ` +
        `correct the bucket's name (and the path-style setting).`
      );
    case "InvalidAccessKeyId":
      return `${t.endpoint} does not know this access key ID. Check the access key ID (and that the key is still active).`;
    case "SignatureDoesNotMatch":
      return `The secret access key does not belong to this access key ID. Enter the secret again.`;
    case "AccessDenied":
    case "AllAccessDisabled":
      return (
        `The key may not use bucket "${t.bucket}" (access denied). Give it the rights ` +
        `to put, get, delete and list objects under the prefix.`
      );
    case "AuthorizationHeaderMalformed":
    case "InvalidRegion":
    case "IllegalLocationConstraintException":
      return `The region does not match the bucket's at ${t.endpoint}. Correct the region.`;
    case "PermanentRedirect":
    case "TemporaryRedirect":
      return `${t.endpoint} says the bucket lives at another endpoint. Correct the endpoint or the region.`;
    case "ConnectionRefused":
    case "ECONNREFUSED":
      return (
        `Nothing answers at ${t.endpoint} (connection refused). Check the ` + `endpoint's address and port, and that the server is running.`
      );
    case "ConnectionClosed":
    case "ECONNRESET":
      return `${t.endpoint} closed the connection. Check whether the endpoint needs https (or http).`;
    case "TimedOut":
    case "ETIMEDOUT":
      return `${t.endpoint} did not answer in time. Check the address and the network between this server and it.`;
    case "EntityTooLarge":
      return `${t.endpoint} refused an object as too large: ${message}`;
  }
  if (/certificate|TLS|SSL/i.test(message) || /CERT|TLS/i.test(code))
    return (
      `The TLS certificate of ${t.endpoint} is not trusted (${code || message}). Use a ` +
      `certificate a public authority signed, or check the host name.`
    );
  if (/ENOTFOUND|getaddrinfo|DNS/i.test(code + message)) return `The host of ${t.endpoint} cannot be found. Check the endpoint's address.`;
  return `${t.endpoint} answered with an error${code ? ` (${code})` : ""}: ${message}`;
}
