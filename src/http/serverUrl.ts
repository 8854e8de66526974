/** `http://host:port`, an IPv6 host in brackets: what clients and tests are told to use. */
export function serverUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
