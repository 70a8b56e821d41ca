/** Whether a configured Monetico key has the shape Monetico gives: 40 characters, hexadecimal but maybe the last two. */
export function isMoneticoKey(key: string): boolean {
  return /^[0-9A-Fa-f]{38}[0-9A-Za-z]{2}$/.test(key.trim());
}
