/** Directory implementations: file system and in-memory. */
export type { Directory, DirectoryLock } from './types.ts';
export { FsDirectory } from './fs-directory.ts';
export { MemoryDirectory } from './memory-directory.ts';
