import { type DataKeyMapping, DEFAULT_KEY_NAMES, type Language, STANDARD_DATA_KEYS } from '@esl/contract';

export interface DataKeyOption {
  /** The data key an element binds to. */
  readonly key: string;
  /** The display name from the tenant's field mapping. */
  readonly label: string;
  readonly standard: boolean;
}

/**
 * The data keys a binding can pick, with display names: the tenant's field mapping when it has
 * loaded, else the standard keys with their default names in the interface language. A key an
 * element is already bound to stays listed even when the mapping no longer has it.
 */
export function dataKeyOptions(
  mapping: readonly DataKeyMapping[] | undefined,
  lang: Language,
  bound: readonly string[] = [],
): DataKeyOption[] {
  const options: DataKeyOption[] = mapping
    ? mapping.map((m) => ({ key: m.name, label: m.tField || m.name, standard: m.standard }))
    : STANDARD_DATA_KEYS.map((key) => ({ key, label: DEFAULT_KEY_NAMES[key][lang], standard: true }));
  const known = new Set(options.map((o) => o.key));
  for (const key of bound) {
    if (!known.has(key)) {
      options.push({ key, label: key, standard: false });
      known.add(key);
    }
  }
  return options;
}
