/**
 * Distribution files: the Homebrew formula is what scripts/formula.ts renders (placeholders or a
 * release's checksums, right binary per platform), the release workflow builds, compiles the four
 * targets, smoke-tests against FalkorDB and publishes with checksums, CI runs the bundle offline,
 * the Docker files wire cgraph's HTTP mode to FalkorDB, and actionlint (when installed) finds
 * nothing in the workflows.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import { TARGETS } from "../scripts/compile.ts";
import { parseSums, PLACEHOLDER_REPO, renderFormula } from "../scripts/formula.ts";
import { ROOT } from "./helpers/mcp.ts";

const read = (rel: string) => Deno.readTextFileSync(join(ROOT, rel));
// deno-lint-ignore no-explicit-any
type Yaml = any;

Deno.test("dist: Formula/cgraph.rb is the rendered formula of its own version, repo and sums", () => {
  const rb = read("Formula/cgraph.rb");
  const version = /^ {2}version "([^"]+)"$/m.exec(rb)?.[1];
  const repo = /^ {2}homepage "https:\/\/github\.com\/([^"]+)"$/m.exec(rb)?.[1];
  assert(version && repo, "version and homepage present");
  const sums = new Map<string, string>();
  for (const m of rb.matchAll(/url "[^"]*\/(cgraph-[^"]+)"\n\s+sha256 "([0-9a-f]{64})"/g)) {
    sums.set(m[1], m[2]);
  }
  assertEquals(sums.size, 4);
  assertEquals(rb, renderFormula({ version, repo, sums }));
  assert(rb.includes('assert_match "cgraph #{version}", shell_output("#{bin}/cgraph --version")'));
  assert(/def caveats[\s\S]*FalkorDB[\s\S]*docker/i.test(rb), "caveats about FalkorDB and Docker");
});

Deno.test("dist: a release's formula points each platform at its binary and checksum", () => {
  const sums = parseSums(
    TARGETS.map((t, i) => `${String(i + 1).repeat(64)}  cgraph-${t}`).join("\n") +
      `\n${"f".repeat(64)} *dist/cgraph.js\nnot a line\n`,
  );
  assertEquals(sums.get("cgraph.js"), "f".repeat(64));
  const rb = renderFormula({ version: "1.2.3", repo: "acme/cgraph", sums });
  const block = (os: string, arch: string) =>
    new RegExp(`on_${os} do[\\s\\S]*?on_${arch} do\\n\\s+url "([^"]+)"\\n\\s+sha256 "(\\w+)"`)
      .exec(rb)!.slice(1);
  const base = "https://github.com/acme/cgraph/releases/download/v1.2.3/cgraph-";
  assertEquals(block("macos", "arm"), [`${base}aarch64-apple-darwin`, "4".repeat(64)]);
  assertEquals(block("linux", "intel"), [`${base}x86_64-unknown-linux-gnu`, "1".repeat(64)]);
  assert(!rb.includes(PLACEHOLDER_REPO));
  assert.throws(() => renderFormula({ version: "1", repo: "a/b", sums: new Map() }), /checksum/);
});

Deno.test("dist: the release workflow compiles four targets, smoke-tests, publishes checksums", () => {
  const wf: Yaml = parse(read(".github/workflows/release.yml"));
  assertEquals(wf.on.push.tags, ["v*.*.*"]);
  const steps = (job: string) => (wf.jobs[job].steps as Yaml[]).map((s) => s.run ?? s.uses ?? "");
  const build = steps("build").join("\n");
  assert(build.includes("deno task build") && build.includes("deno task compile --skip-build"));
  for (const t of TARGETS) assert(build.includes(`cgraph-${t}`), `checksum of ${t}`);
  assert(build.includes("sha256sum") && build.includes("scripts/formula.ts"));
  const smoke = wf.jobs["smoke-linux"];
  assert(smoke.services.falkordb.image.startsWith("falkordb/falkordb"));
  assertEquals(smoke.env.FALKORDB_URL, "redis://localhost:6379");
  assert(steps("smoke-linux").some((s) => s.includes("scripts/smoke.ts ./dist/cgraph-x86_64")));
  assertEquals(wf.jobs.publish.needs, ["build", "smoke-linux", "smoke-macos"]);
  assertEquals(wf.jobs.publish.permissions, { contents: "write" });
  assert(steps("publish").some((s) => s.includes("gh release create") && s.includes("dist/*")));
  const upload = wf.jobs.build.steps.find((s: Yaml) => s.uses?.startsWith("actions/upload-art"));
  assert(upload.with.path.includes("dist/SHA256SUMS"));

  const ci: Yaml = parse(read(".github/workflows/ci.yml"));
  const ciRuns = (ci.jobs.test.steps as Yaml[]).map((s) => s.run ?? "").join("\n");
  assert(ciRuns.includes("deno task test"), "CI still runs the tests");
  assert(ciRuns.includes("SMOKE_OFFLINE=1 deno run -A scripts/smoke.ts"));

  const tasks = JSON.parse(read("deno.json")).tasks;
  assertEquals(tasks.build, "deno run -A scripts/build.ts");
  assertEquals(tasks.compile, "deno run -A scripts/compile.ts");
});

Deno.test("dist: Docker runs cgraph's HTTP mode next to FalkorDB with a volume", () => {
  const dockerfile = read("Dockerfile");
  for (const m of dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)) {
    for (const src of m[1].split(" ")) {
      assert(Deno.statSync(join(ROOT, src)), `COPY source ${src} exists`);
    }
  }
  assert(dockerfile.includes("RUN deno task build"));
  assert(/MCP_TRANSPORT=http/.test(dockerfile) && /MCP_HOST=0\.0\.0\.0/.test(dockerfile));
  assert(dockerfile.includes("EXPOSE 3000"));
  assert(dockerfile.includes("/health"));
  const compose: Yaml = parse(read("docker-compose.yml"));
  const { falkordb, cgraph } = compose.services;
  assert(falkordb.image.startsWith("falkordb/falkordb"));
  assertEquals(falkordb.volumes, ["falkordb-data:/data"]);
  assert("falkordb-data" in compose.volumes);
  assertEquals(falkordb.ports, undefined, "FalkorDB stays inside the compose network");
  assertEquals(cgraph.environment.FALKORDB_URL, "redis://falkordb:6379");
  assert(/^\$\{CGRAPH_TOKEN:\?/.test(cgraph.environment.CGRAPH_TOKEN), "a token is required");
  assertEquals(cgraph.depends_on.falkordb.condition, "service_healthy");
  assert(cgraph.ports[0].endsWith(":3000"));
});

function which(name: string): string | undefined {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (dir && Deno.statSync(join(dir, name)).isFile) return join(dir, name);
    } catch {
      // not here
    }
  }
}

const actionlint = Deno.env.get("ACTIONLINT") ?? which("actionlint");

Deno.test({
  name: "dist: actionlint finds nothing in the workflows",
  ignore: actionlint === undefined,
}, async () => {
  const out = await new Deno.Command(actionlint!, {
    args: [".github/workflows/ci.yml", ".github/workflows/release.yml"],
    cwd: ROOT,
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 0, text);
});
