// Adding the pi extension to pi's settings (global or project), removing it,
// and saying whether it is active: shared by the CLI and VS Code.
export {
  extensionStatus,
  installExtension,
  uninstallExtension,
  piSettingsFile,
  SetupError,
  PI_EXTENSION_FILE,
  type ExtensionStatus,
  type ScopeStatus,
  type SetupChange,
  type SetupLocation,
  type SetupScope,
} from "./extension-settings.js";
