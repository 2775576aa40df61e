/**
 * The one raw request in the web client: a file the server sends (an export), which the typed
 * client cannot take since it reads every answer as JSON. Same-origin, with the session cookie;
 * the caller reads the body (a Blob to save, or the problem document of a refusal).
 */
export function fetchFile(url: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, { credentials: "same-origin", signal });
}
