// The child process that indexes big sessions and writes their snapshots.

export { IndexChild, type IndexChildOptions } from "./index-child-client.js";
