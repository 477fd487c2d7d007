// Headless Debian Chromium driven by playwright-core (no browser download needed).
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_PATH } from "./versions";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.PI_SESSIONS_CHROMIUM || CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}
