/**
 * The field an API error of a PATCH of these settings is about, read from the path its message
 * names (`restrictIPList[1]`, `notifyAddresses[0].notifyAddress`, `tsig.tsigKeyValue`): the id of
 * the input, or `form` when it names none.
 */
export function settingsFieldOf (message: string, draft: { ranges: ReadonlyArray<{ start: string, end: string }> }): string {
  const range = /restrictIPList\[(\d+)\](\.\S+)?/i.exec(message)
  if (range !== null) {
    const i = Number(range[1])
    if (range[2]?.includes('(startIP,endIP)') === true) return `range-${i}-end`
    const ip = /'([^']*)'/.exec(message)?.[1]
    return ip !== undefined && ip === draft.ranges[i]?.end.trim() && ip !== draft.ranges[i]?.start.trim() ? `range-${i}-end` : `range-${i}-start`
  }
  const notify = /notifyAddresses\[(\d+)\]/.exec(message)
  if (notify !== null) return `notify-${Number(notify[1])}-address`
  if (/tsig\.tsigKeyName|tsigKeyName is/.test(message)) return 'tsig-name'
  if (/tsig\.tsigKeyValue/.test(message)) return 'tsig-secret'
  if (/tsig\.tsigAlgorithm/.test(message)) return 'tsig-algorithm'
  if (/changeComment/.test(message)) return 'change-comment'
  return 'form'
}
