// Opening a session: the read, the loaded session, bodies parsed on demand.

export { type ByteSource, EntryBodies, MemoryByteSource } from "./byte-source.js";
export { type LoadedSession, Session } from "./loaded-session.js";
export { openSessionInMemory } from "./open-session-in-memory.js";
export { type OpenOptions, openSession, openSessionSync, refreshSession, sessionFromBytes } from "./open-session.js";
export { firstUserMessageText, recordedCwd, sessionModifiedDate, textOfContent } from "./session-info.js";
