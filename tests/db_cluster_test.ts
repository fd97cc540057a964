/**
 * cgraph on a real FalkorDB cluster: three primaries (the bundle's server with
 * `--cluster-enabled yes` and the FalkorDB module) on loopback ports, started here. Projects are
 * named so they land on different shards; each is indexed and queried through the CLI and through
 * MCP (two servers sharing the cluster: the catalogue lives in the database, not in a process).
 * Then one primary is killed: that shard's project gets a clear error naming the node, every other
 * project still answers, and list_projects says which node did not answer; once the primary is
 * restarted, the same servers answer for its projects again.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { keySlot } from "../src/db/cluster.ts";
import { poll } from "../src/db/proc.ts";
import { Db } from "../src/db/client.ts";
import { keysFor, projectKeys } from "../src/project/names.ts";
import { runCgraph } from "./helpers/db.ts";
import { type ClusterNode, startCluster, type TestCluster } from "./helpers/cluster.ts";
import { childEnv, connectMcp, type McpSession, ROOT, textOf } from "./helpers/mcp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** One project name per node (by its hash tag's slot), plus a second one on the first node. */
function projectsFor(nodes: ClusterNode[]): { name: string; node: number }[] {
  const out: { name: string; node: number }[] = [];
  const want = [0, 1, 2, 0];
  const run = crypto.randomUUID().slice(0, 6);
  for (let i = 0; out.length < want.length && i < 10_000; i++) {
    const name = `cl${run}-${i}`;
    const slot = keySlot(`{${name}}`);
    const node = nodes.findIndex((n) => slot >= n.slots[0] && slot <= n.slots[1]);
    if (node === want[out.length]) out.push({ name, node });
  }
  return out;
}

Deno.test(
  { name: "a three-primary FalkorDB cluster: shards, CLI, MCP, a dead primary", ...opts },
  async (t) => {
    let cluster: TestCluster | undefined;
    const sessions: McpSession[] = [];
    const dirs: string[] = [];
    try {
      cluster = await startCluster(3);
      const env = { FALKORDB_URL: cluster.url, CGRAPH_LOG: "warn" };
      const projects = projectsFor(cluster.nodes);
      assertEquals(projects.length, 4);
      for (let i = 0; i < projects.length; i++) {
        const dir = await Deno.makeTempDir({ prefix: "cgraph-cluster-repo-" });
        dirs.push(dir);
        await copyTree(join(ROOT, "fixtures/python"), dir);
      }

      await t.step("each project is indexed and answers through the CLI", async () => {
        for (const [i, p] of projects.entries()) {
          const r = await runCgraph(["index", dirs[i], "--project", p.name], env);
          assertEquals(r.code, 0, r.stderr);
          const q = await runCgraph([
            "callers",
            "shop.db.store",
            "--project",
            p.name,
            "-C",
            dirs[i],
          ], env);
          assertEquals(q.code, 0, q.stderr);
          assert(/shop\/models\.py:\d+ \| User\.save/.test(q.stdout), q.stdout);
        }
        // Every key of a project is on its own node: graph, metadata, notes.
        const db = await Db.connect({
          host: "127.0.0.1",
          port: cluster!.nodes[0].port,
          origin: "test",
        });
        try {
          assert(db.isCluster);
          for (const p of projects) {
            const node = cluster!.nodes[p.node];
            const keys = keysFor(p.name, "_default");
            for (const k of [keys.graph, keys.info, keys.files, projectKeys(p.name).identity]) {
              const slot = keySlot(k);
              assert(slot >= node.slots[0] && slot <= node.slots[1], `${k} on slot ${slot}`);
            }
          }
        } finally {
          await db.close();
        }
      });

      await t.step("two MCP servers share the catalogue and notes in the cluster", async () => {
        for (let i = 0; i < 2; i++) {
          sessions.push(await connectMcp([dirs[0], "--project", projects[0].name], childEnv(env)));
        }
        const listed = textOf(
          await sessions[1].client.callTool({ name: "list_projects", arguments: {} }),
        );
        for (const p of projects) assert(listed.includes(p.name), listed);
        const note = await sessions[0].client.callTool({
          name: "remember",
          arguments: { symbol: "shop.db.store", text: "written through server one" },
        });
        assert(!note.isError, textOf(note));
        const recall = await sessions[1].client.callTool({
          name: "recall",
          arguments: { query: "server one" },
        });
        assert(textOf(recall).includes("written through server one"), textOf(recall));
        for (const p of projects) {
          const r = await sessions[1].client.callTool({
            name: "get_stats",
            arguments: { project: p.name },
          });
          assert(!r.isError, textOf(r));
          assert(/files/.test(textOf(r)), textOf(r));
        }
      });

      await t.step("a dead primary fails its own projects only, with a clear error", async () => {
        const dead = cluster!.nodes[1];
        await dead.kill();
        const onDead = projects.filter((p) => p.node === 1);
        const alive = projects.filter((p) => p.node !== 1);
        for (const p of onDead) {
          const r = await sessions[1].client.callTool({
            name: "get_stats",
            arguments: { project: p.name },
          });
          assert(r.isError, textOf(r));
          assert(new RegExp(`127\\.0\\.0\\.1:${dead.port}`).test(textOf(r)), textOf(r));
          assert(/not answering|did not answer/.test(textOf(r)), textOf(r));
          const i = projects.indexOf(p);
          const c = await runCgraph([
            "callers",
            "shop.db.store",
            "--project",
            p.name,
            "-C",
            dirs[i],
          ], env);
          assert(c.code !== 0, c.stdout);
          assert(
            new RegExp(`127\\.0\\.0\\.1:${dead.port}.*not answering`).test(c.stderr),
            c.stderr,
          );
        }
        for (const p of alive) {
          const r = await sessions[1].client.callTool({
            name: "get_stats",
            arguments: { project: p.name },
          });
          assert(!r.isError, textOf(r));
          const i = projects.indexOf(p);
          const c = await runCgraph([
            "callers",
            "shop.db.store",
            "--project",
            p.name,
            "-C",
            dirs[i],
          ], env);
          assertEquals(c.code, 0, c.stderr);
          assert(/User\.save/.test(c.stdout), c.stdout);
        }
        const listed = textOf(
          await sessions[0].client.callTool({ name: "list_projects", arguments: {} }),
        );
        assert(new RegExp(`not answering: 127\\.0\\.0\\.1:${dead.port}`).test(listed), listed);
        for (const p of alive) assert(listed.includes(p.name), listed);
        // The servers are still alive and serving.
        const again = await sessions[0].client.callTool({ name: "get_stats", arguments: {} });
        assert(!again.isError, textOf(again));
      });

      await t.step("the restarted primary's projects answer again, same servers", async () => {
        await cluster!.nodes[1].restart();
        for (const p of projects.filter((p) => p.node === 1)) {
          let last = "";
          const ok = await poll(
            async () => {
              const r = await sessions[1].client.callTool({
                name: "get_stats",
                arguments: { project: p.name },
              });
              last = textOf(r);
              return r.isError ? undefined : true;
            },
            20_000,
            200,
          );
          assert(ok, last);
          assert(/files/.test(last), last);
        }
      });
    } finally {
      for (const s of sessions) await s.close().catch(() => {});
      await cluster?.stop();
      for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  },
);

async function copyTree(from: string, to: string): Promise<void> {
  for await (const e of Deno.readDir(from)) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory) {
      await Deno.mkdir(dst, { recursive: true });
      await copyTree(src, dst);
    } else if (e.isFile) await Deno.copyFile(src, dst);
  }
}
