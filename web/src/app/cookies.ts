export function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  for (const part of document.cookie ? document.cookie.split(';') : []) {
    const item = part.trim();
    if (item.startsWith(prefix)) return item.slice(prefix.length);
  }
  return null;
}
