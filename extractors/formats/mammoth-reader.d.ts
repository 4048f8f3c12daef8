/**
 * Types of the two mammoth modules the DOCX extractor reads documents with (mammoth ships none
 * for them): the ZIP opener and the document reader behind mammoth.extractRawText.
 */
declare module 'mammoth/lib/unzip.js' {
  export function openZip(options: { buffer: Buffer }): Promise<unknown>;
}
declare module 'mammoth/lib/docx/docx-reader.js' {
  export interface MammothElement {
    type: string;
    value?: string;
    children?: MammothElement[];
  }
  export function read(docxFile: unknown): Promise<{ value: MammothElement }>;
}
