// Renders media/pi-sessions.png (the Marketplace icon: vsce refuses SVG there) from the
// activity-bar glyph media/pi-sessions.svg, with headless Chromium. Run it after changing
// the SVG: node scripts/vscode/run.mjs render-icon
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { launchChromium } from "./browser";

export async function renderIcon(root: string): Promise<string> {
  const glyph = await readFile(join(root, "media/pi-sessions.svg"), "utf8");
  const white = glyph.replace('stroke="currentColor"', 'stroke="#ffffff"').replace('width="24" height="24"', 'width="96" height="96"');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
    await page.setContent(
      `<body style="margin:0"><div style="width:128px;height:128px;border-radius:24px;` +
        `background:linear-gradient(135deg,#3b5bdb,#1c2a6b);display:flex;align-items:center;justify-content:center">${white}</div></body>`,
    );
    const path = join(root, "media/pi-sessions.png");
    await page.screenshot({ path, omitBackground: true });
    return path;
  } finally {
    await browser.close();
  }
}
