/**
 * The view's HTTP handler, mounted at `/` by `cgraph view` and at `/view/` by `cgraph mcp --http`:
 * the page and its assets (embedded in the program: no CDN, works offline and in the single-file
 * build), and the JSON API (api.ts). Read-only: GET and HEAD only.
 *
 * Auth, when a token is set: `Authorization: Bearer <token>`, or `?token=<token>` (the URL
 * `cgraph view` prints), or the cookie the page sets once opened with a valid token (so its assets
 * and API calls carry it). Anything else is 401. Requests with a foreign Origin are refused (403),
 * as on /mcp.
 */
import { createHash } from "node:crypto";
import { CgraphError, describeError } from "../errors.ts";
import { log } from "../log.ts";
import { NotFoundError } from "../query/resolve_symbol.ts";
import type { Session } from "../query/session.ts";
import { API } from "./api.ts";
import { type Asset, ASSETS } from "./assets.ts";

export interface ViewOptions {
  /** Where the page lives: "" (its own server) or "/view" (the MCP server). */
  base: string;
  token?: string;
  /** Whether a request's Origin may talk to the view (the MCP server's rule: loopback or listed). */
  originAllowed: (origin: string) => boolean;
}

const COOKIE = "cgraph_view";

const etags = new WeakMap<Asset, string>();

/** A strong validator for an embedded asset: a hash of its text, computed once. */
function etagOf(asset: Asset): string {
  let tag = etags.get(asset);
  if (!tag) {
    tag = `"${createHash("sha256").update(asset.body).digest("hex").slice(0, 32)}"`;
    etags.set(asset, tag);
  }
  return tag;
}

/** Whether a pathname belongs to a view mounted at `base`. */
export function isViewPath(pathname: string, base = "/view"): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

function cookieToken(req: Request): string | undefined {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === COOKIE) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

/** Constant-time comparison of a presented token with the expected one. */
export function same(presented: string | undefined | null, token: string): boolean {
  if (presented == null) return false;
  const enc = new TextEncoder();
  const a = enc.encode(presented.trim());
  const b = enc.encode(token);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}

function bearer(req: Request): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization")?.trim() ?? "")?.[1];
}

/** `started`: when the request came in; its answer says how long it took (Server-Timing). */
function json(body: unknown, status = 200, started?: number): Response {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  };
  if (started !== undefined) {
    headers["server-timing"] = `app;dur=${(performance.now() - started).toFixed(1)}`;
  }
  return new Response(text, { status, headers });
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  // Everything comes from this server; blob: for exports, data: for PNG exports.
  "content-security-policy": "default-src 'self'; img-src 'self' data: blob:; " +
    "style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
};

function unauthorized(): Response {
  return new Response(
    "401 Unauthorized: open the URL `cgraph view` printed (it carries the token), or send " +
      "Authorization: Bearer <token>.\n",
    {
      status: 401,
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "www-authenticate": 'Bearer realm="cgraph"',
      },
    },
  );
}

/** A handler for every request under `opts.base`. */
export function viewHandler(
  session: Session,
  opts: ViewOptions,
): (req: Request) => Promise<Response> {
  const base = opts.base.replace(/\/+$/, "");
  return async (req) => {
    const url = new URL(req.url);
    if (req.method !== "GET" && req.method !== "HEAD") {
      return new Response("Method Not Allowed\n", { status: 405, headers: { allow: "GET, HEAD" } });
    }
    const origin = req.headers.get("origin");
    if (origin !== null && !opts.originAllowed(origin)) {
      return new Response("403 Forbidden: origin not allowed\n", { status: 403 });
    }
    const fromQuery = url.searchParams.get("token");
    if (opts.token) {
      const ok = same(bearer(req), opts.token) ||
        same(fromQuery, opts.token) || same(cookieToken(req), opts.token);
      if (!ok) return unauthorized();
    }
    let path = url.pathname.slice(base.length);
    if (path === "") {
      // `/view` -> `/view/`, so the page's relative URLs (assets/, api/) resolve under it.
      return new Response(null, { status: 308, headers: { location: `${base}/${url.search}` } });
    }
    path = path.slice(1);
    if (path === "" || path === "index.html") {
      const headers: Record<string, string> = {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        ...SECURITY_HEADERS,
      };
      if (opts.token && same(fromQuery, opts.token)) {
        headers["set-cookie"] =
          `${COOKIE}=${encodeURIComponent(opts.token)}; Path=${base || "/"}; ` +
          "HttpOnly; SameSite=Strict";
      }
      return new Response(req.method === "HEAD" ? null : ASSETS["index.html"].body, { headers });
    }
    if (path.startsWith("assets/")) {
      const asset = ASSETS[path.slice("assets/".length)];
      if (!asset) return new Response("Not Found\n", { status: 404 });
      // Revalidated on every load (an upgrade changes them), answered 304 when unchanged, so
      // the browser keeps its compiled code for Cytoscape.js between loads.
      const headers = {
        "content-type": asset.type,
        "cache-control": "no-cache",
        etag: etagOf(asset),
        ...SECURITY_HEADERS,
      };
      if (req.headers.get("if-none-match") === headers.etag) {
        return new Response(null, { status: 304, headers });
      }
      return new Response(req.method === "HEAD" ? null : asset.body, { headers });
    }
    if (path.startsWith("api/")) {
      const route = API[path.slice("api/".length)];
      if (!route) return json({ error: `No API '${path}'.` }, 404);
      const started = performance.now();
      try {
        return json(await route(session, url.searchParams), 200, started);
      } catch (err) {
        await session.noteError(err);
        if (err instanceof NotFoundError) {
          return json({ error: err.message, hint: err.hint, suggestions: err.suggestions }, 404);
        }
        if (err instanceof CgraphError) return json({ error: err.message, hint: err.hint }, 400);
        log.error(`view: ${path}: ${describeError(err)}`);
        return json({ error: describeError(err) }, 500);
      }
    }
    return new Response("Not Found\n", { status: 404 });
  };
}
