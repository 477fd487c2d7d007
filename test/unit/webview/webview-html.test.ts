import { Window } from "happy-dom";
import { afterEach, describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, renderWebviewHtml } from "../../../src/extension/webview-html";

const OPTIONS = {
  cspSource: "https://*.vscode-cdn.net",
  nonce: "r4nd0mN0nce+/A==",
  scriptUri: "https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js",
  styleUri: "https://file+.vscode-resource.vscode-cdn.net/ext/media/webview.css",
  title: "Compaction summary",
};

let window: Window | undefined;

afterEach(async () => {
  await window?.happyDOM.close();
  window = undefined;
});

/** Parses the shell like a browser would (scripts are not run: evaluation is off). */
function parse(html: string): Window["document"] {
  window = new Window();
  window.document.write(html);
  return window.document;
}

describe("renderWebviewHtml", () => {
  it("sets exactly the CSP the webview needs, with no unsafe-inline", () => {
    const document = parse(renderWebviewHtml(OPTIONS));
    const metas = document.querySelectorAll('meta[http-equiv="Content-Security-Policy"]');
    expect(metas).toHaveLength(1);
    expect(metas[0]!.getAttribute("content")).toBe(
      "default-src 'none'; img-src https://*.vscode-cdn.net data:; style-src https://*.vscode-cdn.net; " +
        "script-src 'nonce-r4nd0mN0nce+/A=='; font-src https://*.vscode-cdn.net",
    );
    expect(renderWebviewHtml(OPTIONS)).not.toContain("unsafe-inline");
  });

  it("loads one module script with the nonce and one stylesheet; nothing inline", () => {
    const document = parse(renderWebviewHtml(OPTIONS));
    const scripts = document.querySelectorAll("script");
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.getAttribute("type")).toBe("module");
    expect(scripts[0]!.getAttribute("nonce")).toBe(OPTIONS.nonce);
    expect(scripts[0]!.getAttribute("src")).toBe(OPTIONS.scriptUri);
    expect(scripts[0]!.textContent).toBe("");
    const links = document.querySelectorAll("link");
    expect(links).toHaveLength(1);
    expect([links[0]!.getAttribute("rel"), links[0]!.getAttribute("href")]).toEqual(["stylesheet", OPTIONS.styleUri]);
    expect(document.querySelectorAll("style, [style]")).toHaveLength(0);
    const handlers = Array.from(document.querySelectorAll("*")).flatMap((el) =>
      Array.from(el.attributes).filter((a) => a.name.startsWith("on")),
    );
    expect(handlers).toEqual([]);
    expect(document.getElementById("app")).not.toBeNull();
    expect(document.title).toBe("Compaction summary");
  });

  it("escapes every interpolated value", () => {
    const hostile = {
      ...OPTIONS,
      title: `</title><script>alert(1)</script>"'&`,
      scriptUri: `https://x/a.js"><script>alert(2)</script>`,
      styleUri: `https://x/a.css" onload="alert(3)`,
    };
    const html = renderWebviewHtml(hostile);
    const document = parse(html);
    expect(document.title).toBe(hostile.title);
    const scripts = document.querySelectorAll("script");
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.getAttribute("src")).toBe(hostile.scriptUri);
    const link = document.querySelector("link")!;
    expect(link.getAttribute("href")).toBe(hostile.styleUri);
    expect(link.hasAttribute("onload")).toBe(false);
    expect(html).not.toContain("<script>alert");
  });

  it("refuses a cspSource or nonce that could add or end a CSP directive", () => {
    expect(() => contentSecurityPolicy("https://a; script-src *", "abc")).toThrow(/cspSource/);
    expect(() => contentSecurityPolicy("'unsafe-inline'", "abc")).toThrow(/cspSource/);
    expect(() => contentSecurityPolicy("", "abc")).toThrow(/cspSource/);
    expect(() => contentSecurityPolicy("https://a", "abc' 'unsafe-inline")).toThrow(/nonce/);
    expect(() => contentSecurityPolicy("https://a", "")).toThrow(/nonce/);
  });

  it("accepts a cspSource made of several sources (code-server adds 'self')", () => {
    expect(contentSecurityPolicy("'self'  https://*.vscode-cdn.net", "n")).toBe(
      "default-src 'none'; img-src 'self' https://*.vscode-cdn.net data:; style-src 'self' https://*.vscode-cdn.net; " +
        "script-src 'nonce-n'; font-src 'self' https://*.vscode-cdn.net",
    );
  });
});

describe("createNonce", () => {
  it("gives 128 random bits in base64, different every time", () => {
    const nonces = Array.from({ length: 200 }, () => createNonce());
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(() => contentSecurityPolicy("https://a", nonces[0]!)).not.toThrow();
  });
});
