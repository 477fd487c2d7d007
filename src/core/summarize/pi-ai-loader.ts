// The only place pi-ai is loaded. It is big (about 6 MB bundled), so it is
// imported on first use, never at module top level: the extension must be able
// to activate and show sessions without loading it. Type-only imports of pi-ai
// elsewhere are erased at compile time and load nothing.

export type PiAi = typeof import("@mariozechner/pi-ai");
export type PiAiOAuth = typeof import("@mariozechner/pi-ai/oauth");

let piAi: Promise<PiAi> | undefined;
let piAiOAuth: Promise<PiAiOAuth> | undefined;

export function loadPiAi(): Promise<PiAi> {
  if (!piAi) {
    piAi = import("@mariozechner/pi-ai");
    piAi.catch(() => {
      piAi = undefined;
    });
  }
  return piAi;
}

export function loadPiAiOAuth(): Promise<PiAiOAuth> {
  if (!piAiOAuth) {
    piAiOAuth = import("@mariozechner/pi-ai/oauth");
    piAiOAuth.catch(() => {
      piAiOAuth = undefined;
    });
  }
  return piAiOAuth;
}

/** Whether anything has asked for pi-ai (or its OAuth part) yet; the extension checks it stays false during activation. */
export function isPiAiRequested(): boolean {
  return piAi !== undefined || piAiOAuth !== undefined;
}
