// Types of build-wasm.mjs (a plain .mjs build script the unit tests also use).
export const SOURCE: string;
export const LITERALS: string;
export const MODULE: string;
export function compile(): Promise<Buffer>;
export function moduleSource(bytes: Buffer): string;
