// pi's deepMergeSettings: the override wins per top-level key; when both sides
// hold a plain object the two are merged one level deep ({...base, ...override}).

export type SettingsObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is SettingsObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function deepMergeSettings(base: SettingsObject, overrides: SettingsObject): SettingsObject {
  const result: SettingsObject = { ...base };
  for (const key of Object.keys(overrides)) {
    const overrideValue = overrides[key];
    const baseValue = base[key];
    if (overrideValue === undefined) continue;
    if (isPlainObject(overrideValue) && isPlainObject(baseValue)) {
      result[key] = { ...baseValue, ...overrideValue };
    } else {
      result[key] = overrideValue;
    }
  }
  return result;
}
