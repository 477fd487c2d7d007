// A session followed as it is written: facts from appended entries, the follower, work ahead.

export { type BranchFacts, branchFactsFromScratch, LiveSessionFacts } from "./live-facts.js";
export { type PreparableAhead, prepareAheadInSlices, type PreparingAhead } from "./prepare-ahead.js";
export { type FollowEvent, followSession } from "./session-follower.js";
