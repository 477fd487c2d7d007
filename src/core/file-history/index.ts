// Files ⇄ sessions: which entries touched a file and what they did to its content.
export { collectFileTouches, touchesOfFile, type FileTouch } from "./file-touches";
export { fileChangeSteps, reconstructFileVersions, type FileChangeStep, type FileVersions, type StepVersions } from "./file-changes";
export { applyPiEdits, unapplyPiEdits, editsOfArguments, EditNotApplicable, type TextEdit } from "./pi-edit";
export { sessionDiff, type SessionDiff, type SessionDiffSource } from "./session-diff";
export { lastContentOf, type LastContent } from "./last-content";
