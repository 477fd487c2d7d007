// The only link targets a summary may carry: web pages, mail, and in-page
// anchors. Everything else (javascript:, data:, vbscript:, file:, relative
// paths that would resolve inside the webview's origin) is refused. Used both
// as markdown-it's validateLink and again by the HTML sanitiser.

const SAFE_SCHEMES = new Set(["https", "http", "mailto"]);

export function isSafeHref(url: string): boolean {
  const trimmed = url.trim();
  if (trimmed.startsWith("#")) return !/[\u0000-\u001f\u007f]/.test(trimmed);
  // The scheme must start the string: a leading control character, an encoded
  // tab ("java%09script:") or an entity-decoded one never matches.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(trimmed);
  return scheme !== null && SAFE_SCHEMES.has(scheme[1]!.toLowerCase());
}
