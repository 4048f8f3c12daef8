/**
 * Extractor for formats that are indexed by metadata only (legacy DOC/XLS/PPT, images,
 * audio, video, OneNote, opaque binaries): an empty body flagged `metadataOnly`, never a rejection.
 */
import type { Extractor } from '../types.ts';

export const extractMetadataOnly: Extractor = async () => ({ text: '', sections: [], metadataOnly: true });
