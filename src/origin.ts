/** Where an HTTP request may come from: loopback hosts and allowed browser origins. */

/** True for names and addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === "::ffff:127.0.0.1";
}

/** Whether a request's Origin header may talk to this server. */
export function originAllowed(origin: string, allowed: readonly string[] = []): boolean {
  if (allowed.includes("*")) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed pages, file://) and garbage
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (isLoopbackHost(url.hostname)) return true;
  return allowed.some((a) => a.replace(/\/+$/, "").toLowerCase() === url.origin.toLowerCase());
}
