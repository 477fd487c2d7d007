// Searching sessions by content.

export { searchableMessageText } from "./message-text.js";
export { normalizeWhitespaceLower, parseSearchQuery } from "./query.js";
export { type EntryMatch, SearchIndex, type SearchResult, type SessionHit } from "./search-index.js";
export { SearchStore } from "./search-store.js";
export { skimTextMessage } from "./text-message-skim.js";
