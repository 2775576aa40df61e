/**
 * What the space exports (the wiki pack, the static site) share: their zip handed to the client
 * with its progress told. Done once the client has read the last byte; a failure or a download
 * abandoned half-way is recorded, so whoever polls the progress learns how it ended.
 */
import type { Core } from "../core";
import type { Progress } from "../platform/progress";

export function reportingProgress(
  stream: ReadableStream<Uint8Array>,
  progress: Progress,
  core: Core,
  what: string,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            progress.done();
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          core.log.error(`${what} failed`, { err: String(err) });
          progress.fail("internal_error", "The export stopped on an error.");
          controller.error(err);
        }
      },
      cancel(reason) {
        progress.fail("cancelled", "The download was cancelled.");
        return reader.cancel(reason);
      },
    },
    // Nothing read ahead: the zip is produced only as fast as the client takes it.
    { highWaterMark: 0 },
  );
}
