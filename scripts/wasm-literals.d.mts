// Types of wasm-literals.mjs.
export const LITERALS: Record<string, string>;
export function literalsSource(): string;
