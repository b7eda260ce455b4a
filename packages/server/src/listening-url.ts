/** The address a listener on `host` is opened at by a browser: a wildcard host, which no browser can open, as `localhost`. */
export const listeningUrl = (host: string, port: number): string => {
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`
}
