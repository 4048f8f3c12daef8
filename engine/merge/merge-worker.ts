/**
 * Entry of the merge worker thread (merge-thread.ts): merges source segments given as file
 * images with their frozen deletion bitsets, and answers with the merged segment's file image
 * (in shared memory) and the doc maps (transferred), neither copied. One merge at a time, in message order.
 * Stored-field blocks are compressed on this thread.
 */
import { parentPort } from 'node:worker_threads';
import { SegmentCore } from '../segment/segment-reader.ts';
import { concatChunks, segmentFileName } from '../segment/segment-writer.ts';
import { useInlineCompression } from '../store/compressor.ts';
import { mergeSegments } from './merger.ts';
import type { MergeReply, MergeRequest } from './merge-thread.ts';

useInlineCompression();
const port = parentPort!;

port.on('message', (req: MergeRequest) => {
  void run(req).then(
    // The image is in shared memory (concatChunks): posted, it is shared; only the doc maps move.
    (reply) =>
      port.postMessage(
        reply,
        reply.docMaps.map((m) => m.buffer as ArrayBuffer),
      ),
    (err) => port.postMessage({ job: req.job, error: String((err as Error)?.message ?? err) } satisfies MergeReply),
  );
});

async function run(req: MergeRequest): Promise<MergeReply & { bytes: Uint8Array; docMaps: Int32Array[] }> {
  const sources = req.sources.map((s) => ({ core: new SegmentCore(s.bytes, segmentFileName(s.id)), bits: s.bits }));
  const { segment, docMaps } = await mergeSegments(req.id, sources, undefined, req.options ?? {});
  return { job: req.job, bytes: concatChunks(segment.chunks, segment.size), docMaps };
}
