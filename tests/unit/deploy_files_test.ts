/**
 * The self-hosting files (Dockerfile, compose.yaml, deploy/, .env.example) checked against the
 * code they run, since a wrong one fails only on someone's server: the Deno version, the start
 * command's permissions, every variable the configuration reads, the KV folder on the volume, the
 * port the proxies reach, the health check. Where a Docker engine answers, the image is also
 * built; where none does (this repository's CI machine has the client only), a line says that
 * only the files were checked.
 */
import assert from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import denoJson from "../../deno.json" with { type: "json" };
import { loadConfig } from "../../server/config.ts";
import { choosePayments } from "../../server/payments/registry.ts";
import { parseIpRanges } from "../../server/net/ip_ranges.ts";
import { createTestApp, fakeDist } from "../helpers/test_app.ts";

const ROOT = new URL("../../", import.meta.url);

function read(path: string): Promise<string> {
  return Deno.readTextFile(new URL(path, ROOT));
}

/** The folder of a file path (no trailing slash). */
function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}

/** One Dockerfile instruction: its keyword and the rest of its (joined) lines. */
interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/** The instructions of a Dockerfile: comments dropped, `\` continuations joined, stages counted. */
function parseDockerfile(text: string): Instruction[] {
  const logical: string[] = [];
  let current = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (current === "" && (line === "" || line.startsWith("#"))) continue;
    if (current !== "" && line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      current += line.slice(0, -1) + " ";
      continue;
    }
    logical.push(current + line);
    current = "";
  }
  assert.equal(current, "", "the Dockerfile ends inside a continued line");
  let stage = -1;
  return logical.map((line) => {
    const match = /^([A-Za-z]+)\s+(.*)$/s.exec(line);
    assert.ok(match, `not an instruction: ${line}`);
    const keyword = match[1].toUpperCase();
    if (keyword === "FROM") stage++;
    return { keyword, args: match[2].trim(), stage };
  });
}

/** KEY=value pairs of an ENV instruction (the `ENV KEY value` form too). */
function envPairs(args: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  const equals = [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)];
  if (equals.length === 0) {
    const [key, ...rest] = args.split(/\s+/);
    pairs[key] = rest.join(" ");
  }
  for (const [, key, value] of equals) pairs[key] = value.replace(/^"|"$/g, "");
  return pairs;
}

/** The `deno run` command of the start task that serves (after `&&`), as its words. */
function startServerWords(): string[] {
  const commands = denoJson.tasks.start.split("&&").map((c) => c.trim().split(/\s+/));
  const serve = commands.find((words) => words.at(-1) === "server/main.ts");
  assert.ok(serve, "the start task runs server/main.ts");
  return serve;
}

/** The permission flags and entry point of a `deno run` command's words. */
function runShape(words: string[]): { flags: string[]; entry: string } {
  const from = words.indexOf("run");
  assert.ok(from >= 0, `not a deno run command: ${words.join(" ")}`);
  const rest = words.slice(from + 1);
  return {
    flags: rest.filter((w) => w.startsWith("--allow") || w === "-A").sort(),
    entry: rest.at(-1)!,
  };
}

/** The variables server/config.ts's schema reads, from its source. */
async function schemaVariables(): Promise<string[]> {
  const source = await read("server/config.ts");
  const block = /const envSchema = z\.object\(\{\n([\s\S]*?)\n\}\);/.exec(source);
  assert.ok(block, "server/config.ts defines `const envSchema = z.object({ ... });`");
  const names = [...block[1].matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]);
  assert.ok(names.includes("PORT") && names.includes("KV_PATH"), names.join(", "));
  return names;
}

/** The variables the payment providers read from the environment they are handed. */
function providerVariables(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === "string") read.add(name);
      return undefined;
    },
  });
  choosePayments(env);
  return [...read];
}

/** `NAME=value` lines of .env.example, set (`NAME=`) or commented out (`# NAME=default`). */
function envExampleLines(text: string): { name: string; value: string; commented: boolean }[] {
  return [...text.matchAll(/^(# )?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => ({
    name: m[2],
    value: m[3],
    commented: m[1] !== undefined,
  }));
}

/** Sections of a systemd unit, each a map of its keys to every value given (keys repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      section = new Map();
      sections.set(header[1], section);
      continue;
    }
    const pair = /^([A-Za-z]+)=(.*)$/.exec(line);
    assert.ok(pair && section, `not a unit line: ${line}`);
    section.set(pair[1], [...(section.get(pair[1]) ?? []), pair[2]]);
  }
  return sections;
}

/** Throws unless every `{` of a block-structured file (nginx, Caddy) is closed in order. */
function assertBalanced(text: string, what: string): void {
  let depth = 0;
  for (const line of text.split("\n")) {
    const code = line.replace(/#.*$/, "");
    for (const char of code) {
      if (char === "{") depth++;
      if (char === "}") depth--;
      assert.ok(depth >= 0, `${what}: a } closes nothing: ${line}`);
    }
  }
  assert.equal(depth, 0, `${what}: a { is never closed`);
}

/** The TRUSTED_PROXIES value a file's comments tell the reader to set. */
function trustedProxiesNamed(text: string, what: string): string {
  const match = /^\s*#\s*TRUSTED_PROXIES=(\S+)\s*$/m.exec(text);
  assert.ok(match, `${what} names the TRUSTED_PROXIES value to set`);
  return match[1];
}

const DEFAULT_PORT = loadConfig({}).port;

Deno.test("the Dockerfile runs the pinned Deno, unprivileged, as `deno task start` serves", async () => {
  const pinned = /^DENO_VERSION=(\d+\.\d+\.\d+)$/m.exec(await read(".ci/run"))?.[1];
  assert.ok(pinned, ".ci/run pins DENO_VERSION");
  const steps = parseDockerfile(await read("Dockerfile"));
  const froms = steps.filter((s) => s.keyword === "FROM");
  assert.ok(froms.length >= 1);
  for (const from of froms) {
    const image = from.args.split(/\s+/)[0];
    assert.match(image, /^denoland\/deno:/, "the official image");
    assert.equal(image.split(":")[1].replace(/^[a-z]+-/, ""), pinned, `${image} is Deno ${pinned}`);
  }
  const last = froms.length - 1;
  const final = steps.filter((s) => s.stage === last);
  const all = (keyword: string) => final.filter((s) => s.keyword === keyword);

  // The client is built when the image is, in some stage, by the task the repository uses.
  assert.ok(steps.some((s) => s.keyword === "RUN" && /\bdeno task build\b/.test(s.args)));

  const users = all("USER");
  assert.ok(users.length > 0, "the final stage sets a USER");
  assert.ok(!["root", "0"].includes(users.at(-1)!.args.split(":")[0]), "and it is not root");
  const cmdIndex = final.findIndex((s) => s.keyword === "CMD");
  assert.ok(final.indexOf(users.at(-1)!) < cmdIndex, "USER comes before CMD");

  const cmd: string[] = JSON.parse(final[cmdIndex].args);
  assert.deepEqual(runShape(cmd), runShape(startServerWords()), "CMD = the start task's serve");

  const env = Object.assign({}, ...all("ENV").map((s) => envPairs(s.args)));
  assert.equal(env.HOST, "0.0.0.0", "reachable through the container's port");
  assert.equal(env.DENO_ENV, "production");
  assert.deepEqual(all("EXPOSE").map((s) => s.args), [env.PORT ?? String(DEFAULT_PORT)]);
  const volumes = all("VOLUME").map((s) => s.args.replace(/^\["?|"?\]$/g, ""));
  assert.ok(env.KV_PATH?.startsWith("/"), "KV_PATH is an absolute file path");
  assert.deepEqual(volumes, [folderOf(env.KV_PATH)], "the KV file's folder is the volume");

  // Every entry point the server loads, workers included (they are not in main.ts's graph), has
  // its dependencies cached when the image is built, so a container never downloads at start.
  const cached = all("RUN").filter((s) => /\bdeno cache\b/.test(s.args))
    .flatMap((s) => s.args.split(/\s+/).filter((w) => w.endsWith(".ts")));
  const workers: string[] = [];
  for await (const file of walk("server")) {
    const source = await read(file);
    for (const m of source.matchAll(/new Worker\(new URL\("\.\/([^"]+)", import\.meta\.url\)/g)) {
      workers.push(`${folderOf(file)}/${m[1]}`);
    }
  }
  assert.ok(workers.length >= 2, `workers found: ${workers.join(", ")}`);
  for (const entry of ["server/main.ts", ...workers, healthProbe(final).entry]) {
    assert.ok(cached.includes(entry), `deno cache covers ${entry}`);
  }
});

/** The HEALTHCHECK's command (its words) and the script it runs. */
function healthProbe(final: Instruction[]): { words: string[]; entry: string } {
  const check = final.find((s) => s.keyword === "HEALTHCHECK");
  assert.ok(check, "the image has a HEALTHCHECK");
  const json = /\bCMD\s+(\[.*\])$/.exec(check.args);
  assert.ok(json, "HEALTHCHECK CMD in exec form");
  const words: string[] = JSON.parse(json[1]);
  return { words, entry: words.find((w) => w.endsWith(".ts"))! };
}

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else if (path.endsWith(".ts")) yield path;
  }
}

Deno.test("the image's health check passes on a serving shop and fails on a stopped one", async () => {
  const steps = parseDockerfile(await read("Dockerfile"));
  const last = Math.max(...steps.map((s) => s.stage));
  const { words } = healthProbe(steps.filter((s) => s.stage === last));
  assert.equal(words[0], "deno");
  const probe = (port: number) =>
    new Deno.Command(Deno.execPath(), {
      args: words.slice(1),
      cwd: ROOT,
      env: { PORT: String(port), NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();

  // A shop that can serve: a built client and a running job runner (what /api/ready asks).
  await using t = await createTestApp({
    env: { DIST_DIR: await fakeDist() },
    queue: { running: () => true },
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, t.app.fetch);
  const port = server.addr.port;
  const healthy = await probe(port);
  assert.equal(healthy.code, 0, new TextDecoder().decode(healthy.stderr));
  await server.shutdown();
  const stopped = await probe(port);
  assert.equal(stopped.code, 1);
  assert.match(new TextDecoder().decode(stopped.stderr), /^unhealthy: /);
});

Deno.test(".env.example names exactly the variables the configuration reads", async () => {
  const lines = envExampleLines(await read(".env.example"));
  const named = lines.map((l) => l.name);
  assert.equal(new Set(named).size, named.length, "each variable once");
  // DENO_KV_ACCESS_TOKEN is read by Deno itself when KV_PATH is a URL; the file names it there.
  const expected = [...await schemaVariables(), ...providerVariables(), "DENO_KV_ACCESS_TOKEN"];
  assert.deepEqual([...named].sort(), [...new Set(expected)].sort());

  // Secrets are empty; a commented-out value is the default the shop uses when it is unset.
  for (
    const name of ["ADMIN_PASSWORD", "SMTP_URL", "DENO_KV_ACCESS_TOKEN", ...providerVariables()]
  ) {
    assert.equal(lines.find((l) => l.name === name)!.value, "", `${name} is left empty`);
  }
  const defaults = JSON.stringify({ ...loadConfig({}), adminPassword: "" });
  for (const { name, value, commented } of lines) {
    if (!commented || value === "") continue;
    if (name === "KV_PATH") {
      // Its default is applied where the store is opened.
      assert.match(await read("server/kv/open.ts"), new RegExp(`"${value}"`));
      continue;
    }
    const config = JSON.stringify({ ...loadConfig({ [name]: value }), adminPassword: "" });
    assert.equal(config, defaults, `# ${name}=${value} is the default`);
  }
  // As written (secrets still empty) it starts a development shop: no variable in it is invalid.
  loadConfig(Object.fromEntries(lines.filter((l) => !l.commented).map((l) => [l.name, l.value])));
});

Deno.test("compose.yaml runs the image with .env, a restart policy and the KV on a volume", async () => {
  const compose = parseYaml(await read("compose.yaml"));
  const shop = compose.services?.shop;
  assert.ok(shop, "a `shop` service");
  assert.equal(shop.build, ".");
  assert.deepEqual([shop.env_file].flat(), [".env"]);
  assert.ok(["always", "unless-stopped", "on-failure"].includes(shop.restart), shop.restart);

  const steps = parseDockerfile(await read("Dockerfile"));
  const imageEnv = Object.assign(
    {},
    ...steps.filter((s) => s.keyword === "ENV").map((s) => envPairs(s.args)),
  );
  const kvPath: string = shop.environment?.KV_PATH ?? imageEnv.KV_PATH;
  const mounts = (shop.volumes as string[]).map((v) => v.split(":"));
  const mount = mounts.find(([, target]) => target === folderOf(kvPath));
  assert.ok(mount, `a volume is mounted at ${folderOf(kvPath)}, the folder of KV_PATH`);
  assert.ok(mount[0] in (compose.volumes ?? {}), `${mount[0]} is a named volume`);

  const port = Number(imageEnv.PORT ?? DEFAULT_PORT);
  assert.ok(
    (shop.ports as string[]).some((p) => p.endsWith(`:${port}`)),
    `the container's port ${port} is published`,
  );
  // The proxy's connections arrive from the network's gateway, which must be trusted.
  const gateway = compose.networks?.[shop.networks[0]]?.ipam?.config?.[0]?.gateway;
  assert.ok(parseIpRanges(shop.environment.TRUSTED_PROXIES).contains(gateway));
});

Deno.test("the systemd unit serves as the start task does, as its own user, from /var/lib", async () => {
  const unit = parseUnit(await read("deploy/shop.service"));
  const service = unit.get("Service")!;
  const one = (key: string) => {
    const values = service.get(key);
    assert.equal(values?.length, 1, `[Service] ${key} once`);
    return values[0];
  };
  assert.ok(unit.get("Unit")?.get("Description"));
  assert.deepEqual(unit.get("Install")?.get("WantedBy"), ["multi-user.target"]);
  assert.ok(!["root", "0"].includes(one("User")), "a dedicated user");
  assert.match(one("WorkingDirectory"), /^\//);
  assert.match(one("EnvironmentFile"), /^-?\//);
  assert.equal(one("Restart"), "on-failure");
  const words = one("ExecStart").split(/\s+/);
  assert.match(words[0], /^\/.*\/deno$/, "deno by absolute path");
  assert.deepEqual(runShape(words), runShape(startServerWords()));

  const env = Object.fromEntries(service.get("Environment")!.map((e) => e.split(/=(.*)/s)));
  assert.equal(env.DENO_ENV, "production");
  assert.match(env.KV_PATH, /^\/var\/lib\//);
  const state = `/var/lib/${one("StateDirectory")}`;
  assert.ok(env.KV_PATH.startsWith(`${state}/`), `KV_PATH is in ${state}, the unit's own`);
  loadConfig({
    ...env,
    ADMIN_PASSWORD: "a-long-password",
    PUBLIC_URL: "https://shop.example",
    DEMO_PAYMENTS: "1",
  });
  assert.match(service.get("ExecStartPost")?.[0] ?? "", /health_probe\.ts/);
});

Deno.test("nginx and Caddy terminate TLS and forward to the shop's default port", async () => {
  const nginx = await read("deploy/nginx.conf");
  assertBalanced(nginx, "nginx.conf");
  assert.match(nginx, new RegExp(`server 127\\.0\\.0\\.1:${DEFAULT_PORT};`));
  assert.match(nginx, /proxy_pass http:\/\/shop;/);
  assert.match(nginx, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  assert.match(nginx, /listen 443 ssl;/);
  assert.match(nginx, /ssl_certificate \S+;/);
  assert.match(nginx, /ssl_certificate_key \S+;/);
  assert.ok(parseIpRanges(trustedProxiesNamed(nginx, "nginx.conf")).contains("127.0.0.1"));

  const caddy = await read("deploy/Caddyfile");
  assertBalanced(caddy, "Caddyfile");
  assert.match(caddy, new RegExp(`^\\s*reverse_proxy 127\\.0\\.0\\.1:${DEFAULT_PORT}\\b`, "m"));
  // A site address that is a host name (no http://) is what makes Caddy get a certificate.
  assert.match(caddy, /^[a-z0-9.-]+\.[a-z]+ \{$/m);
  assert.ok(parseIpRanges(trustedProxiesNamed(caddy, "Caddyfile")).contains("127.0.0.1"));
});

Deno.test("the backup cron line runs the backup task on the unit's KV file", async () => {
  const lines = (await read("deploy/backup.cron")).split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#") && !/^[A-Z_]+=/.test(l));
  assert.equal(lines.length, 1);
  const [minute, hour, day, month, weekday, user, ...command] = lines[0].split(/\s+/);
  assert.ok(/^\d+$/.test(minute) && Number(minute) < 60, minute);
  assert.ok(/^\d+$/.test(hour) && Number(hour) < 24, hour);
  assert.deepEqual([day, month, weekday], ["*", "*", "*"]);
  assert.equal(user, "root");
  const text = command.join(" ");
  assert.ok("backup" in denoJson.tasks);
  assert.match(text, /\bdeno task backup \S+/);
  // cron ends the command at an unescaped %.
  assert.doesNotMatch(text.replaceAll("\\%", ""), /%/);
  const unit = parseUnit(await read("deploy/shop.service")).get("Service")!;
  const kvPath = unit.get("Environment")!.find((e) => e.startsWith("KV_PATH="))!;
  assert.ok(text.includes(kvPath), `the backup reads ${kvPath}`);
});

Deno.test("the image builds where a Docker engine answers", async () => {
  const engine = await new Deno.Command("docker", {
    args: ["info"],
    stdout: "null",
    stderr: "null",
  })
    .output().then((out) => out.success, () => false);
  if (!engine) {
    console.log(
      "No Docker engine answers `docker info`: the files' syntax was checked, no image built.",
    );
    return;
  }
  const out = await new Deno.Command("docker", {
    args: ["build", "--quiet", "--tag", "switch-shop:test", "."],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
});

Deno.test("deno.json's Deno Deploy settings build the client and serve server/main.ts, whose cron wakes the jobs", async () => {
  const deploy = denoJson.deploy;
  // Deploy runs the install and build commands, then the entrypoint, with no flags of ours.
  assert.equal(deploy.install, "deno install");
  assert.equal(deploy.build, "deno task build");
  assert.ok(denoJson.tasks.build, "the build task exists");
  assert.equal(deploy.runtime.type, "dynamic");
  const entrypoint = deploy.runtime.entrypoint.replace(/^\.\//, "");
  assert.ok(denoJson.tasks.start.endsWith(entrypoint), "the same entrypoint as deno task start");
  // Deploy finds crons by running the module's top level before it serves: the jobs' cron must
  // be registered there, not inside main().
  const main = await read(entrypoint);
  const cron = main.search(/^Deno\.cron\(/m);
  assert.ok(cron >= 0, "a top-level Deno.cron in the entrypoint");
  assert.ok(cron < main.indexOf("async function main"), "registered before main() serves");
  // Deno.cron is unstable in the CLI: a self-hosted start (same deno.json) must enable it.
  assert.ok(denoJson.unstable.includes("cron"));
  assert.ok(denoJson.unstable.includes("kv"));
});
