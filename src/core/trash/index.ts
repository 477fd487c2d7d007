// Moving files to the trash.

export { homeTrashDir, moveToFreedesktopTrash, TrashUnavailableError } from "./freedesktop-trash.js";
