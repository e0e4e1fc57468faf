/**
 * Hardware id of the k-th tag of load station i (station-load.ts's child; the gateway bench seeds
 * the same ids). `distinct`: every station has tags of its own, else all report the same ones.
 */
export function loadTagId(i: number, k: number, perStation: number, distinct: boolean): string {
  return (0x21a3f5c00 + (distinct ? i * perStation : 0) + k).toString(16).toUpperCase().padStart(12, '0');
}
