# syntax=docker/dockerfile:1
#
# cgraph as a shared MCP server: Streamable HTTP on port 3000 (path /mcp, health check /health).
#
#   docker build -t cgraph .
#   docker run -d -p 127.0.0.1:3000:3000 -e CGRAPH_TOKEN="$(openssl rand -hex 32)" \
#     -e FALKORDB_URL=redis://my-falkordb:6379 -v "$PWD":/repo:ro cgraph
#
# The server listens on all interfaces inside the container, so it refuses to start without
# CGRAPH_TOKEN; clients send `Authorization: Bearer <token>`. The repository to answer for is
# mounted at /repo (read-only is enough). FalkorDB comes from FALKORDB_URL: docker-compose.yml
# runs both. The image holds the single-file build (dist/cgraph.js: every npm package and grammar
# embedded) on the official Deno image, plus git (cgraph lists files and branches with it).
ARG DENO_VERSION=2.9.6

FROM denoland/deno:debian-${DENO_VERSION} AS build
WORKDIR /src
COPY deno.json deno.lock main.ts ./
COPY grammars/ grammars/
COPY scripts/ scripts/
COPY src/ src/
RUN deno task build

FROM denoland/deno:debian-${DENO_VERSION}
# hadolint ignore=DL3008
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/* \
  && git config --system --add safe.directory '*'
COPY --from=build /src/dist/cgraph.js /opt/cgraph/cgraph.js
RUN printf '#!/bin/sh\nexec deno run -A --no-config /opt/cgraph/cgraph.js "$@"\n' \
    > /usr/local/bin/cgraph \
  && chmod 0755 /usr/local/bin/cgraph
ENV MCP_TRANSPORT=http \
    MCP_HOST=0.0.0.0 \
    MCP_PORT=3000 \
    CGRAPH_DB=external \
    CGRAPH_CACHE_DIR=/tmp/cgraph/cache \
    CGRAPH_DATA_DIR=/tmp/cgraph/data
# The base image's unprivileged user (it owns DENO_DIR).
# hadolint ignore=DL3066
USER deno
WORKDIR /repo
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s \
  CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:3000/health'); Deno.exit(r.ok ? 0 : 1)"]
ENTRYPOINT ["cgraph"]
CMD ["mcp", "/repo"]
