/// <reference lib="dom" />
/**
 * A real headless browser for the view tests: Debian's `chromium` (or CHROMIUM_PATH), driven by
 * puppeteer-core. Its own browser download is never used (not reachable here); CI installs the
 * Debian package (.ci/run).
 */
import puppeteer, { type Browser } from "puppeteer-core";

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/** The browser executable, or undefined when none is installed. */
export function chromiumPath(): string | undefined {
  const env = Deno.env.get("CHROMIUM_PATH");
  for (const p of env ? [env, ...CANDIDATES] : CANDIDATES) {
    try {
      if (Deno.statSync(p).isFile) return p;
    } catch {
      // not there
    }
  }
  return undefined;
}

/**
 * WebGL without a GPU: ANGLE over SwiftShader, Chromium's software renderer (sigma.js draws the
 * view's large graphs with WebGL 2). Newer Chromiums give WebGL no software fallback unless told.
 */
export const SOFTWARE_GL = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"];

export async function launch(executablePath: string, extraArgs: string[] = []): Promise<Browser> {
  return await puppeteer.launch({
    executablePath,
    headless: true,
    // Running as root in CI containers needs --no-sandbox.
    args: ["--no-sandbox", "--disable-dev-shm-usage", ...SOFTWARE_GL, ...extraArgs],
    defaultViewport: { width: 1280, height: 800 },
  });
}

/**
 * How much of a PNG is drawn: the pixels that are not background (near white), the number of
 * distinct colours among them and how many are red (the view's cycles, #e5484d), decoded by the
 * browser itself (an <img> onto a canvas).
 */
export async function inkOf(
  browser: Browser,
  png: Uint8Array,
): Promise<{ ink: number; colors: number; red: number; pixels: number }> {
  const page = await browser.newPage();
  try {
    const b64 = btoa(Array.from(png, (b) => String.fromCharCode(b)).join(""));
    return await page.evaluate(async (data: string) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext("2d")!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      let ink = 0;
      let red = 0;
      const colors = new Set<number>();
      for (let i = 0; i < px.length; i += 4) {
        const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
        if (r > 235 && g > 235 && b > 235) continue;
        ink++;
        if (r > 190 && g < 130 && b < 130) red++;
        colors.add(((r >> 5) << 6) | ((g >> 5) << 3) | (b >> 5));
      }
      return { ink, colors: colors.size, red, pixels: px.length / 4 };
    }, b64);
  } finally {
    await page.close();
  }
}
