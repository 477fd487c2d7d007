// File-system helpers (atomic writes).

export { writeFileAtomic } from "./atomic-write.js";
