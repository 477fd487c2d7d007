// Makes pi's SessionManager reproducible inside this process: pi takes entry ids
// from crypto.randomUUID() and timestamps from `new Date()`, so both are
// replaced before pi is imported. Everything else pi does stays untouched.
import crypto, { createHash } from "node:crypto";
import { syncBuiltinESMExports } from "node:module";

export function sha256(text) {
  return createHash("sha256").update(text).digest();
}

/** Small seeded PRNG (mulberry32) for timing jitter, tool-call ids and signatures. */
export function createRng(seedText) {
  let state = sha256(seedText).readUInt32LE(0);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return {
    next,
    /** Integer in [min, max]. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    base62: (length) => Array.from({ length }, () => BASE62[Math.floor(next() * 62)]).join(""),
    base64: (bytes) => Buffer.from(Array.from({ length: bytes }, () => Math.floor(next() * 256))).toString("base64"),
  };
}

/** A simulated wall clock: only moves when the scenario says time passes. */
export function createClock(startIso) {
  let now = Date.parse(startIso);
  return {
    now: () => now,
    advance: (ms) => {
      now += Math.max(1, Math.round(ms));
    },
  };
}

/**
 * Replace crypto.randomUUID (seeded, counter based) and the Date constructor
 * (no-argument form and Date.now read the simulated clock). Call before the
 * first import of pi: its modules bind `randomUUID` at import time, and
 * syncBuiltinESMExports makes that binding see the replacement.
 */
export function installDeterminism(seedText, clock) {
  let counter = 0;
  crypto.randomUUID = () => {
    const hex = sha256(`${seedText}/uuid/${counter++}`).toString("hex");
    const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
  syncBuiltinESMExports();

  const RealDate = Date;
  class SimulatedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(clock.now());
      else super(...args);
    }
    static now() {
      return clock.now();
    }
  }
  globalThis.Date = SimulatedDate;
}

/** A UUIDv7 (what pi uses for session ids) from a fixed time and seed. */
export function uuidV7(ms, seedText) {
  const time = ms.toString(16).padStart(12, "0");
  const rand = sha256(seedText).toString("hex");
  const variant = ((parseInt(rand[3], 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rand.slice(0, 3)}-${variant}${rand.slice(4, 7)}-${rand.slice(7, 19)}`;
}
