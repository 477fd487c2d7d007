// Pinned versions and cache locations of the tools the real-VS-Code suite runs on.
// They live outside the repository so `npm ci` stays small and a cached install
// survives a fresh clone.

export const CODE_SERVER_VERSION = "4.139.1";
/** code-server 4.139 refuses anything but Node 24; the npm package `node` carries that binary and its headers. */
export const NODE_FOR_CODE_SERVER_VERSION = "24.21.0";
/** Debian packages: Chromium is the client; libkrb5-dev gives gssapi.h to code-server's kerberos module. */
export const DEBIAN_PACKAGES = ["chromium", "libkrb5-dev"] as const;
export const CHROMIUM_PATH = "/usr/bin/chromium";

export { toolCacheRoot as cacheRoot } from "../tool-cache";
