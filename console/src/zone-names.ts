/** A zone name as the service writes it: lower case, with the final dot. */
export function zoneKey (name: string): string {
  const n = name.trim().toLowerCase()
  return n.endsWith('.') ? n : `${n}.`
}

/** The zone names of a text (separated by commas, spaces or lines), without repeats, in order. */
export function zoneNamesOf (text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(n => n !== '').map(zoneKey))]
}
