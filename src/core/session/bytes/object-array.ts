// An empty array that V8 already stores as an array of any values.
//
// A fresh `[]` starts as an array of small integers; its first push of a
// string or object changes its element kind. Code that V8 optimised during an
// earlier read saw both kinds at that push, and each read's fresh arrays made
// it throw that code away at their first push ("not a Smi"). An array made
// from a literal holding a non-number already has the general kind, and
// keeps it when emptied.

export function objectArray<T>(): T[] {
  const a: unknown[] = [undefined];
  a.pop();
  return a as T[];
}
