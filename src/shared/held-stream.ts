import { Writable } from "node:stream";

/** A stream that keeps what is written until {@link HeldStream.release}, then passes everything on. */
export interface HeldStream extends Writable {
  /** Writes what was kept, in order, and passes later writes straight on. */
  release(): void;
}

/**
 * `destination` behind a hold: on a terminal, the start-up logs wait until the playground's URL has
 * been printed, so the URL is the first line a person sees.
 */
export function heldStream(destination: NodeJS.WritableStream): HeldStream {
  let kept: Buffer[] | null = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (kept === null) destination.write(chunk);
      else kept.push(Buffer.from(chunk));
      callback();
    },
  }) as HeldStream;
  stream.release = () => {
    if (kept === null) return;
    for (const chunk of kept) destination.write(chunk);
    kept = null;
  };
  return stream;
}
