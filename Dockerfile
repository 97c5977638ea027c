# The shop in a container: `docker compose up -d` (compose.yaml), or
#   docker build -t switch-shop . && docker run -p 8000:8000 -v shop-data:/data --env-file .env switch-shop
# See docs/deploy.md. The Deno version is the one .ci/run pins (tests/unit/deploy_files_test.ts
# checks they agree).

# Build: the client bundle (needs esbuild and the browser's packages, which the shop does not).
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
COPY . .
RUN deno task build

# Run: the server's sources, the built client and the server's dependencies, as user deno.
FROM denoland/deno:2.9.6
# /app and /data belong to the unprivileged user the image provides (uid 1993), so Deno can keep
# node_modules/ in /app and the KV file in /data; nothing runs as root.
RUN mkdir -p /app /data && chown deno:deno /app /data
WORKDIR /app
USER deno
COPY --chown=deno:deno deno.json deno.lock ./
COPY --chown=deno:deno server/ server/
COPY --chown=deno:deno shared/ shared/
# The server renders pages with the client's components (server/ssr/), so their sources come too.
COPY --chown=deno:deno client/ client/
COPY --from=build --chown=deno:deno /app/dist/ dist/
# Every entry point's dependencies, fetched now so the container never downloads at start: the
# server, its two workers (loaded at run time, so not in main.ts's graph), the health probe and
# the ops tasks (backup, restore, seed). --frozen: the lock file is the truth.
RUN deno cache --frozen server/main.ts server/ssr/render_worker.ts server/images/png_worker.ts \
    server/ops/health_probe.ts server/ops/backup.ts server/ops/restore.ts server/ops/db_seed.ts

ENV DENO_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    KV_PATH=/data/shop.kv
# The KV file (SQLite) and the files beside it: a volume, so the shop outlives the container.
VOLUME /data
EXPOSE 8000

# Liveness: the process answers. Becomes /api/ready (the store answers too) once that exists.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["deno", "run", "--allow-net=127.0.0.1", "--allow-env=PORT", "server/ops/health_probe.ts", "/api/ready"]

# What `deno task start` runs once the client is built, with the same permissions. The image's
# entrypoint (tini, so SIGTERM reaches Deno and the shop shuts down cleanly) adds `deno`.
CMD ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "--allow-sys", "server/main.ts"]
