import type { LoaderFunctionArgs } from "@remix-run/node";
import { newsletterLogo } from "~/services/newsletter/index.server";

/**
 * GET /newsletter/logo/{studioId}: a project's newsletter logo. Public, as every subscriber's
 * mail client loads it; the image's own type, never sniffed, and a day's caching (the settings
 * page adds the save time to the address, so a new logo shows at once).
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const logo = await newsletterLogo(params.studioId ?? "");
  if (!logo) return new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "Content-Type": logo.type,
      "Content-Length": String(logo.bytes.length),
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
