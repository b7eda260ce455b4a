import { Effect } from "effect"
import type { ApiResponse, PageRoute } from "@paykit/http"

/**
 * The dashboard's static assets: its icon, and its one script. The script is progressive
 * enhancement only: each `<time datetime>` of an instant shows the reader's own zone instead of
 * UTC (the page's HTML says UTC, so a browser without script shows a true value), and keeps the
 * exact UTC value on hover (its `title`, set by the server). Served from the dashboard's path, so
 * the pages' policy allows it as `script-src 'self'` and nothing else.
 */
export const LOCAL_TIMES_SCRIPT = `"use strict";
(function () {
  var format = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
  var times = document.querySelectorAll("time[datetime]");
  for (var i = 0; i < times.length; i++) {
    var element = times[i];
    var value = element.getAttribute("datetime") || "";
    if (value.indexOf("T") === -1) continue;
    var instant = new Date(value);
    if (isNaN(instant.getTime())) continue;
    element.textContent = instant.toLocaleString(undefined, format);
    element.setAttribute("data-zone", "local");
  }
})();
`

/** paykit's icon: a "p" on the pages' header colour. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1c3d5a"/><path d="M11 27V8h7a6 6 0 0 1 0 12h-7" fill="none" stroke="#fff" stroke-width="3.5" stroke-linejoin="round"/></svg>`

/** Under the dashboard's root (`/dashboard`), wherever a host mounts it. */
export const LOCAL_TIMES_PATH = "/assets/local-times.js"
export const FAVICON_PATH = "/assets/favicon.svg"

const asset = (body: string, contentType: string): ApiResponse => ({
  status: 200,
  body,
  headers: { "content-type": contentType, "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" }
})

/** The icon as an answer, for the dashboard's path and the server's `/favicon.ico`, which browsers ask for on their own. */
export const FAVICON = asset(FAVICON_SVG, "image/svg+xml")

/** The assets, to anyone (they hold nothing of an organisation's): pages of the dispatcher. */
export const assetRoutes: ReadonlyArray<PageRoute> = [
  { method: "GET", path: `/dashboard${LOCAL_TIMES_PATH}`, page: () => Effect.succeed(asset(LOCAL_TIMES_SCRIPT, "text/javascript; charset=utf-8")) },
  { method: "GET", path: `/dashboard${FAVICON_PATH}`, page: () => Effect.succeed(FAVICON) }
]
