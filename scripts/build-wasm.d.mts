// Types of build-wasm.mjs (a plain .mjs build script the unit tests also use).
export const WAT: string;
export const MODULE: string;
export function assemble(): Promise<Buffer>;
export function moduleSource(bytes: Buffer): string;
