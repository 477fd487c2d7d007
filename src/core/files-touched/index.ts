// Grounded files-touched manifest: what a session really did to files,
// including through bash (parsed by tree-sitter-bash).

export { initFilesTouched, isBashParserReady, type InitFilesTouchedOptions } from "./bash-syntax";
export { analyzeBashCommand, clearBashAnalysisCache, type AnalyzeBashOptions, type BashAnalysis } from "./analyze-bash";
export {
  collectFilesTouched,
  collectFileActions,
  filesFromActions,
  bashCommandFilesTouched,
  type CollectFilesTouchedOptions,
  type FilesTouched,
  type FilesTouchedFile,
} from "./collect";
export { formatManifestBlock, appendManifest, foldNotice, stripManifest, MANIFEST_SEPARATOR, MANIFEST_HEADING, MANIFEST_LEGEND } from "./manifest";
export type { FileAction, FileOp } from "./actions";
export { foldKey, foldRows, foldLevels, formatFoldRow, isFolded, maxFolderDepth, type FoldItem, type FoldLevel, type FoldRow } from "./fold-rows";
